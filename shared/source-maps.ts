/**
 * Stack traces that name our source files, paid for only when one is logged.
 *
 * Node's `--enable-source-maps` does the same for every module at load: it scans the whole bundle
 * for its line lengths when the module is compiled, ≈ 3–6 ms of every cold start of a 90 KB
 * minified bundle (README, Performance), though most containers never log a stack. So the stack
 * runs without it, and this maps the frames of a logged stack through the `<bundle>.map` that the
 * stack ships beside each bundle (infra/constructs/easel-function.ts), read once per container.
 * Where there is no map (the local server runs the TypeScript sources), a stack is left as it is.
 */
import type { SourceMap as NodeSourceMap } from 'node:module';
import { createRequire } from 'node:module';

// require(): an ES import of node:fs also loads fs/promises, readline and streams at cold start.
const require = createRequire(import.meta.url);

/** A frame's location: `file:///var/task/index.mjs:1:2345` or `/var/task/index.mjs:1:2345`. */
const FRAME = /((?:file:\/\/)?\/[^\s():]+\.m?js):(\d+):(\d+)/g;

/** Each bundle's map, or null when it has none; looked up once per file. */
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
    // No map beside it, or one that does not parse: the frame stays as it is.
  }
  maps.set(file, map);
  return map;
}

/** `../../shared/config.ts` (relative to the bundle's folder when it was built) → `shared/config.ts`. */
function sourceName(fileName: string): string {
  return fileName.replace(/^(?:\.\.?\/)+/, '');
}

/**
 * The stack with each frame in a bundle that has a source map rewritten to the original file,
 * line and column (`shared/config.ts:121:11`); frames without one are left unchanged.
 */
export function mapStack(stack: string): string {
  return stack.replace(FRAME, (whole: string, file: string, line: string, column: string) => {
    const map = mapOf(file);
    if (!map) return whole;
    const origin = map.findOrigin(Number(line), Number(column));
    if (!('fileName' in origin) || !origin.fileName) return whole;
    return `${sourceName(origin.fileName)}:${origin.lineNumber}:${origin.columnNumber}`;
  });
}
