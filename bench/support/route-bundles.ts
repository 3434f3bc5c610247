/** Route bundles built as the stack builds them, their events, and the fresh processes that run them. */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { XRAY_PACKAGE } from '#infra/assets/xray.ts';
import { BUNDLE, bundleOptions, PROJECT_ROOT, xrayPackage } from '#infra/constructs/easel-function.ts';
import { toEvent } from '#infra/local/apigw.ts';
import { PRERENDERED_FOLDER } from '#shared/docs/prerendered-files.ts';
import type { RouteDef } from '#shared/route-types.ts';
import type { OperationId } from '#shared/routes.ts';
import type { LocalRuntime } from '#infra/local/runtime.ts';
import { credentialsFor, requestFor } from '../../test/support/route-requests.ts';
import type { Fixtures } from '../../test/support/route-requests.ts';
import { median } from '../lib/measure.ts';

export type Row = RouteDef & { operationId: string };

export const BUNDLES_DIR = join(PROJECT_ROOT, 'bench-output', 'bundles');
export const COLD_CHILD = fileURLToPath(new URL('./cold-child.mjs', import.meta.url));
/** Goal for JSON routes: import + first invocation, timed inside the fresh process. */
export const JSON_GOAL_MS = 80;
/** Why some first calls make one request more: the cold children share one seeded API key. */
export const SHARED_KEY_NOTE =
  'Processes share the API key: one a minute writes its last-use stamp (an UpdateItem in the first call); the others find it fresh and write nothing.';

/** Builds a route's bundle as the stack does; returns its path and minified size. */
export async function bundle(row: Row): Promise<{ file: string; bytes: number }> {
  const file = join(BUNDLES_DIR, row.operationId, 'index.mjs');
  await build({
    ...bundleOptions(row.handler, row.nodeModules),
    sourcemap: BUNDLE.sourcemap,
    sourcesContent: BUNDLE.sourcesContent,
    outfile: file,
    logLevel: 'silent',
  });
  // Beside the bundle, as the stack's command hooks put them: the built editor, the pre-rendered pages.
  if (row.editorAssets) execFileSync(process.execPath, [join(PROJECT_ROOT, 'editor', 'build.ts'), join(dirname(file), 'editor')], { stdio: 'ignore' });
  if (row.prerendered)
    execFileSync(process.execPath, [join(PROJECT_ROOT, 'shared', 'docs', 'prerender-at-bundling.ts'), join(dirname(file), PRERENDERED_FOLDER)], {
      stdio: 'ignore',
    });
  // and the X-Ray SDK where the bundle may import it.
  if (readFileSync(file, 'utf8').includes(XRAY_PACKAGE)) cpSync(xrayPackage(), join(dirname(file), 'node_modules', XRAY_PACKAGE), { recursive: true });
  return { file, bytes: statSync(file).size };
}

export type PlannedRequest = { method: string; path: string; query?: string; headers: Record<string, string>; body?: Buffer };

/** A request `row` answers in earnest, with seeded credentials (a key of every scope, an owner's session). */
export async function fixtureRequest(baseUrl: string, fixtures: Fixtures, row: Row): Promise<PlannedRequest> {
  const planned = await requestFor(baseUrl, fixtures, row as Row & { operationId: OperationId });
  const headers: Record<string, string> = { ...planned.headers, ...credentialsFor(fixtures, row) };
  if (planned.body !== undefined) headers['content-type'] = 'application/json';
  return { method: planned.method, path: planned.path, headers, body: planned.body === undefined ? undefined : Buffer.from(JSON.stringify(planned.body)) };
}

/** No NODE_OPTIONS, as on Lambda. */
export function coldChildEnv(runtime: Pick<LocalRuntime, 'env'>): NodeJS.ProcessEnv {
  return { ...process.env, ...runtime.env, NODE_OPTIONS: '', LOG_LEVEL: 'silent' };
}

/** The floor: a module start and the harness's own work, which no route can go below. */
export function emptyHandler(dir: string): { file: string; bytes: number } {
  const file = join(dir, 'index.mjs');
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, 'export const handler = async () => ({ statusCode: 204 });\n');
  return { file, bytes: statSync(file).size };
}

/** A fresh source address each time, for the rate limits. */
function fakeRequest(request: PlannedRequest): IncomingMessage {
  return {
    url: request.path + (request.query ? `?${request.query}` : ''),
    method: request.method,
    httpVersion: '1.1',
    headers: { host: 'easel.test', 'user-agent': 'bench', ...request.headers },
    socket: { remoteAddress: `198.18.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`, localPort: 443 },
  } as unknown as IncomingMessage;
}

/** The event the local runtime, like API Gateway, builds for this request. */
export function eventFor(row: Row, request: PlannedRequest) {
  if (!row.path) return toEvent({ req: fakeRequest(request), body: request.body ?? Buffer.alloc(0), routeKey: '$default' });
  const names = [...row.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const pattern = new RegExp(`^${row.path.replace(/\{[^}]+\}/g, '([^/]+)')}$`);
  const values = pattern.exec(request.path)?.slice(1) ?? [];
  const pathParameters = names.length ? Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(values[i]!)])) : undefined;
  return toEvent({ req: fakeRequest(request), body: request.body ?? Buffer.alloc(0), routeKey: `${row.method} ${row.path}`, pathParameters });
}

/** A multipart export of `png` to JPEG at the medium preset. */
export async function exportUpload(png: Buffer): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'input.png');
  form.append('format', 'jpeg');
  form.append('qualityPreset', 'medium');
  const request = new Request('http://bench/api/export', { method: 'POST', body: form });
  return { headers: { 'content-type': request.headers.get('content-type')! }, body: Buffer.from(await request.arrayBuffer()) };
}

/** CPU of the whole process tree, browsers included. */
export interface Invocation {
  ms: number;
  /** When it answered, in ms since the process started. */
  at: number;
  cpuMs: number;
  status?: number;
  /** HTTP requests the invocation made (DynamoDB, S3, an upstream). */
  requests?: number;
  /** Its time with at least one of them in flight: sent and not yet fully answered. */
  waitingMs?: number;
}

export interface ChildResult {
  wallMs: number;
  importMs: number;
  importCpuMs: number;
  invocations: Invocation[];
  /** Browser processes it started included. */
  peakRssMiB: number;
}

/** `command` e.g. `taskset -c 1`; `-e 0` (bare Node) reports only its wall time. */
export function runChild(args: string[], env: NodeJS.ProcessEnv, command: string[] = []): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const [file, ...rest] = [...command, process.execPath, ...args];
    const child = spawn(file!, rest, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallMs = performance.now() - started;
      if (args[0] === '-e') return resolve({ wallMs, importMs: 0, importCpuMs: 0, invocations: [], peakRssMiB: 0 });
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(0, 2000)}`));
      resolve({ wallMs, ...(JSON.parse(line) as Omit<ChildResult, 'wallMs'>) });
    });
  });
}

/** The cold start is the import and the first call. */
export function coldFigures(runs: ChildResult[]) {
  const first = runs.map((run) => run.invocations[0]!);
  return {
    importMs: median(runs.map((run) => run.importMs)),
    firstMs: median(first.map((call) => call.ms)),
    requests: median(first.map((call) => call.requests ?? 0)),
    waitingMs: median(first.map((call) => call.waitingMs ?? 0)),
    coldMs: median(runs.map((run) => run.importMs + run.invocations[0]!.ms)),
    coldCpuMs: median(runs.map((run) => run.importCpuMs + run.invocations[0]!.cpuMs)),
    // Spawn to exit as the parent saw it, less the warm calls made after the cold one.
    wallMs: median(runs.map((run) => run.wallMs - run.invocations.slice(1).reduce((sum, call) => sum + call.ms, 0))),
    /** The first call's statuses over the runs, e.g. `200` or `201/409`. */
    statuses: [...new Set(first.map((call) => call.status))].join('/'),
  };
}
