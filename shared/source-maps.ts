/**
 * Source-mapped stack traces, paid for only when one is logged: `--enable-source-maps` scans every
 * bundle at each cold start (docs/performance.md, "Cold starts"). Reads the `<bundle>.map` shipped beside it.
 */
import type { SourceMap as NodeSourceMap } from 'node:module';
import { createRequire } from 'node:module';

// require(): an ES import of node:fs also loads fs/promises at cold start.
const require = createRequire(import.meta.url);

/** A frame's location: `file:///var/task/index.mjs:1:2345` or `/var/task/index.mjs:1:2345`. */
const FRAME = /((?:file:\/\/)?\/[^\s():]+\.m?js):(\d+):(\d+)/g;

const maps = new Map<string, NodeSourceMap | null>();

function mapOf(file: string): NodeSourceMap | null {
  let map = maps.get(file);
  if (map !== undefined) return map;
  map = null;
  try {
    const { readFileSync } = require('node:fs') as typeof import('node:fs');
    const { SourceMap } = require('node:module') as typeof import('node:module');
    const path = file.startsWith('file://') ? new URL(file).pathname : file;
    map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
  } catch {
    // No usable map: the frame stays as it is.
  }
  maps.set(file, map);
  return map;
}

/** `../../shared/config.ts` (relative to the bundle's folder when it was built) → `shared/config.ts`. */
function sourceName(fileName: string): string {
  return fileName.replace(/^(?:\.\.?\/)+/, '');
}

/** Rewrites each frame of a mapped bundle to its source (`shared/config.ts:121:11`); others stay unchanged. */
export function mapStack(stack: string): string {
  return stack.replace(FRAME, (whole: string, file: string, line: string, column: string) => {
    const map = mapOf(file);
    if (!map) return whole;
    const origin = map.findOrigin(Number(line), Number(column));
    if (!('fileName' in origin) || !origin.fileName) return whole;
    return `${sourceName(origin.fileName)}:${origin.lineNumber}:${origin.columnNumber}`;
  });
}
