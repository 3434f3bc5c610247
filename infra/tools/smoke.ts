/**
 * `npm run smoke [-- --base URL] [--capture-url URL]`: a short check of a deployed stack or a
 * running `npm start`. It writes nothing but one capture in the cache.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import sharp from 'sharp';

type Outcome = { note: string } | { skip: string };

export interface SmokeCheck {
  name: string;
  run(): Promise<Outcome>;
}

export interface SmokeOptions {
  /** Origin (and base path, for an API Gateway stage) of the API, without a trailing slash. */
  base: string;
  captureUrl: string;
  apiKey?: string;
}

class SmokeError extends Error {}

const fail = (message: string): never => {
  throw new SmokeError(message);
};

async function request(url: string, init: RequestInit = {}, timeoutMs = 15_000): Promise<Response> {
  return fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
}

async function expectJson(response: Response, status: number, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(`${what}: ${response.status}, not JSON: ${text.slice(0, 80)}`);
  }
  if (response.status !== status) {
    const envelope = body as { code?: string; message?: string };
    return fail(`${what}: ${response.status} ${envelope.code ?? ''} ${envelope.message ?? text.slice(0, 80)}`.trim());
  }
  return body as Record<string, unknown>;
}

/** From the IHDR chunk; undefined when not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Why this machine cannot reach `url`, or undefined when it answers at all. */
async function unreachable(url: string): Promise<string | undefined> {
  try {
    await (await request(url, {}, 8_000)).body?.cancel();
    return undefined;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? (error as Error).message;
  }
}

export function smokeChecks({ base, captureUrl, apiKey }: SmokeOptions): SmokeCheck[] {
  return [
    {
      name: 'discovery /openapi.json',
      async run() {
        const body = await expectJson(await request(`${base}/openapi.json`), 200, 'GET /openapi.json');
        const paths = Object.keys((body.paths as object | undefined) ?? {});
        if (typeof body.openapi !== 'string' || paths.length === 0) fail('GET /openapi.json: not an OpenAPI document with paths');
        return { note: `OpenAPI ${body.openapi as string}, ${paths.length} paths` };
      },
    },
    {
      name: 'discovery /llms.txt',
      async run() {
        const response = await request(`${base}/llms.txt`);
        const text = await response.text();
        if (response.status !== 200 || !text.startsWith('# ')) fail(`GET /llms.txt: ${response.status}, ${JSON.stringify(text.slice(0, 40))}`);
        return { note: text.split('\n', 1)[0]! };
      },
    },
    {
      name: 'envelope 404 + documentation',
      async run() {
        const path = `/smoke-check-${randomBytes(4).toString('hex')}`;
        const body = await expectJson(await request(`${base}${path}`), 404, `GET ${path}`);
        if (body.code !== 'not_found' || body.status !== 404 || typeof body.documentation !== 'string')
          fail(`GET ${path}: not the 404 envelope: ${JSON.stringify(body).slice(0, 120)}`);
        const documentation = body.documentation as string;
        const page = await request(documentation, { headers: { accept: 'text/markdown' } });
        const text = await page.text();
        if (page.status !== 200 || !text.includes('not_found')) fail(`documentation link ${documentation}: ${page.status}, does not describe not_found`);
        return { note: `not_found, ${documentation} resolves` };
      },
    },
    {
      name: 'capture',
      async run() {
        const why = await unreachable(captureUrl);
        if (why) return { skip: `this machine cannot reach ${captureUrl} (${why}); pass --capture-url to capture another page` };
        const response = await request(
          `${base}/api/screenshot`,
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: captureUrl, forceRefresh: true }) },
          60_000,
        );
        const body = await expectJson(response, 200, `POST /api/screenshot ${captureUrl}`);
        const size = typeof body.screenshot === 'string' ? pngSize(Buffer.from(body.screenshot, 'base64')) : undefined;
        if (!size) fail('POST /api/screenshot: the screenshot is not a base64 PNG');
        return { note: `${captureUrl} → PNG ${size!.width}×${size!.height} (${String(body.strategy ?? 'unknown strategy')})` };
      },
    },
    {
      name: 'export',
      async run() {
        const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 0, g: 160, b: 0 } } })
          .png()
          .toBuffer();
        const form = new FormData();
        form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'smoke.png');
        form.append('format', 'webp');
        form.append('qualityPreset', 'medium');
        const response = await request(`${base}/api/export`, { method: 'POST', body: form }, 30_000);
        if (response.status !== 200) await expectJson(response, 200, 'POST /api/export');
        const bytes = Buffer.from(await response.arrayBuffer());
        const { format, width, height } = await sharp(bytes)
          .metadata()
          .catch(() => fail(`POST /api/export: ${response.status} ${response.headers.get('content-type') ?? '(no type)'}, not an image`));
        if (format !== 'webp' || width !== 64 || height !== 48) fail(`POST /api/export: ${format} ${width}×${height}, expected webp 64×48`);
        return { note: `PNG 64×48 → WebP, ${bytes.length} bytes` };
      },
    },
    {
      name: 'releases (EASEL_API_KEY)',
      async run() {
        if (!apiKey) return { skip: 'EASEL_API_KEY is not set' };
        const body = await expectJson(await request(`${base}/api/v1/releases?limit=1`, { headers: { 'x-api-key': apiKey } }), 200, 'GET /api/v1/releases');
        if (!Array.isArray(body.releases)) fail('GET /api/v1/releases: no releases list');
        return { note: `${(body.releases as unknown[]).length} release(s) on the first page${body.nextCursor ? ', more after it' : ''}` };
      },
    },
  ];
}

/** True when no check failed. */
export async function runSmoke(options: SmokeOptions, print: (line: string) => void): Promise<boolean> {
  const counts = { ok: 0, skip: 0, FAIL: 0 };
  for (const check of smokeChecks(options)) {
    const started = performance.now();
    let status: 'ok' | 'skip' | 'FAIL';
    let detail: string;
    try {
      const outcome = await check.run();
      [status, detail] = 'skip' in outcome ? ['skip', outcome.skip] : ['ok', outcome.note];
    } catch (error) {
      status = 'FAIL';
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      if (error instanceof SmokeError) detail = error.message;
      else if ((error as Error).name === 'TimeoutError') detail = `no answer from ${options.base} in time`;
      else if (cause) detail = `cannot connect to ${options.base} (${cause})`;
      else detail = String(error);
    }
    const ms = `${Math.round(performance.now() - started)} ms`;
    counts[status] += 1;
    print(`${status.padEnd(4)}  ${check.name.padEnd(30)} ${ms.padStart(8)}  ${detail}`);
  }
  print(`${counts.ok} ok, ${counts.skip} skipped, ${counts.FAIL} failed`);
  return counts.FAIL === 0;
}

if (import.meta.main) {
  let values: { base?: string; 'capture-url'?: string };
  try {
    ({ values } = parseArgs({ options: { base: { type: 'string' }, 'capture-url': { type: 'string' } } }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: npm run smoke -- [--base URL] [--capture-url URL]\n`);
    process.exit(2);
  }
  const base = (values.base ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  const captureUrl = values['capture-url'] ?? 'https://example.com';
  for (const [option, value] of [
    ['--base', base],
    ['--capture-url', captureUrl],
  ] as const) {
    if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
      process.stderr.write(`${option} must be an http(s) URL, not ${JSON.stringify(value)}\n`);
      process.exit(2);
    }
  }
  process.stdout.write(`Smoke check of ${base}\n`);
  const ok = await runSmoke({ base, captureUrl, apiKey: process.env.EASEL_API_KEY?.trim() || undefined }, (line) => process.stdout.write(`${line}\n`));
  process.exitCode = ok ? 0 : 1;
}
