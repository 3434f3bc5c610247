/** Source-mapped stack traces, paid for only when one is logged: `--enable-source-maps` scans every bundle at cold start (docs/performance.md). */
import type { SourceMap as NodeSourceMap } from 'node:module';
import { createRequire } from 'node:module';

// require(): an ES import of node:fs also loads fs/promises at cold start.
const require = createRequire(import.meta.url);

/** A frame: `    at name (file:///var/task/index.mjs:1:2345)`, or without a name and parentheses. */
const FRAME = /^(\s+at )(?:(.+?) \()?((?:file:\/\/)?\/[^\s():]+\.m?js):(\d+):(\d+)\)?$/;

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

interface Frame {
  match: RegExpExecArray;
  map: NodeSourceMap | null;
}

/** Each frame of a mapped bundle to its source; a minified function's name is read at its caller's position (as --enable-source-maps does). */
export function mapStack(stack: string): string {
  const lines = stack.split('\n');
  const frames: (Frame | undefined)[] = lines.map((line) => {
    const match = FRAME.exec(line);
    return match ? { match, map: mapOf(match[3]!) } : undefined;
  });
  return lines
    .map((line, index) => {
      const frame = frames[index];
      if (!frame?.map) return line;
      const [, at, name, , row, column] = frame.match;
      const origin = frame.map.findOrigin(Number(row), Number(column));
      if (!('fileName' in origin) || !origin.fileName) return line;
      const caller = frames[index + 1];
      const callerOrigin = caller?.map?.findOrigin(Number(caller.match[4]), Number(caller.match[5]));
      // `async u` or `new u`: the prefix stays, the minified name goes.
      const prefix = /^(?:async |new )/.exec(name ?? '')?.[0] ?? '';
      const original = callerOrigin && 'name' in callerOrigin && callerOrigin.name ? prefix + callerOrigin.name : name;
      const where = `${sourceName(origin.fileName)}:${origin.lineNumber}:${origin.columnNumber}`;
      return original ? `${at}${original} (${where})` : `${at}${where}`;
    })
    .join('\n');
}
