/** The palette shrink runs in a child killed at the deadline: sharp's own timeout stops decoding, never libimagequant's quantising. */
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { UpstreamFailedError } from '#shared/errors.ts';
import { log } from '#shared/log.ts';
import { EXPORT_PRESETS } from '#shared/schemas/export.ts';

/** Largest PNG a response can carry: Lambda's response limit holds it base64-encoded, plus the JSON. */
export const MAX_PNG_BYTES = 4_600_000;

const PRESETS = (['medium', 'low'] as const).map((preset) => [preset, EXPORT_PRESETS.png[preset].options] as const);
const NOTHING_FITS = 3;

// CommonJS for `node -e`: the PNG on stdin, the first preset's output that fits on stdout.
const QUANTISE = `const [sharpPath, max, presets] = process.argv.slice(1);
const sharp = require(sharpPath);
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk)).on('end', async () => {
  const png = Buffer.concat(chunks);
  for (const [preset, options] of JSON.parse(presets)) {
    const out = await sharp(png, { limitInputPixels: false }).png(options).toBuffer();
    process.stderr.write(JSON.stringify({ preset, bytes: out.length }) + '\\n');
    if (out.length <= Number(max)) return void process.stdout.write(out);
  }
  process.exitCode = ${NOTHING_FITS};
});`;

const HINT = 'capture without fullPage, at a lower scale, or one element with selector.';

export interface FitOptions {
  budgetMs: number;
  signal?: AbortSignal;
}

/** Quantised to a palette as the png presets do (medium, then low); 500 `upstream_failed` if neither fits in time. Nothing runs on after. */
export async function fitResponse(png: Uint8Array, options: FitOptions): Promise<Uint8Array> {
  if (png.byteLength <= MAX_PNG_BYTES) return png;
  const outOfTime = new UpstreamFailedError({
    hint: `The capture is larger than a response can carry (${MAX_PNG_BYTES} bytes of PNG) and could not be made a palette image in the time left; ${HINT}`,
  });
  if (options.budgetMs <= 0 || options.signal?.aborted) throw outOfTime;
  const run = await quantise(png, options);
  for (const line of run.stderr.split('\n').filter((entry) => entry.startsWith('{'))) {
    log.info('capture recompressed', { from: png.byteLength, ...(JSON.parse(line) as object) });
  }
  if (run.killed) {
    log.warn('capture recompression abandoned', { from: png.byteLength, budgetMs: Math.round(options.budgetMs) });
    throw outOfTime;
  }
  if (run.code === 0) return run.stdout;
  if (run.code === NOTHING_FITS) {
    throw new UpstreamFailedError({
      hint: `The capture is larger than a response can carry (${MAX_PNG_BYTES} bytes of PNG, even as a palette image); ${HINT}`,
    });
  }
  throw new UpstreamFailedError({
    hint: 'The capture could not be recompressed; retry later.',
    cause: new Error(`quantiser exited ${run.code}: ${run.stderr.slice(-500)}`),
  });
}

interface Run {
  code: number | null;
  killed: boolean;
  stdout: Uint8Array;
  stderr: string;
}

// Only on the rare oversized capture: child_process stays out of every cold start.
const requireHere = createRequire(import.meta.url);

/** Settles once the child has exited, whether it finished, failed or was killed. */
function quantise(png: Uint8Array, options: FitOptions): Promise<Run> {
  const { spawn } = requireHere('node:child_process') as typeof import('node:child_process');
  const presets = JSON.stringify(PRESETS);
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['-e', QUANTISE, requireHere.resolve('sharp'), String(MAX_PNG_BYTES), presets], { stdio: 'pipe' });
    const stdout: Buffer[] = [];
    let stderr = '';
    let killed = false;
    const kill = () => {
      killed = true;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(kill, options.budgetMs);
    options.signal?.addEventListener('abort', kill, { once: true });
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A child killed before it read everything closes stdin under us.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(png);
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
    };
    child.once('error', (error) => {
      done();
      reject(new UpstreamFailedError({ hint: 'The capture could not be recompressed; retry later.', cause: error }));
    });
    child.once('close', (code) => {
      done();
      const out = Buffer.concat(stdout);
      resolve({ code, killed, stdout: new Uint8Array(out.buffer, out.byteOffset, out.byteLength), stderr });
    });
  });
}
