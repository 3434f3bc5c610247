/**
 * `npm run fuzz [-- --base URL] [--requests N] [--seed S] [--concurrency C]`: hostile requests to
 * every row of the route table, counted by status and code.
 *
 * Without --base it starts its own local server with stand-ins for every upstream and a seeded
 * workspace, so requests that pass validation do their real work. With --base it fuzzes a running
 * server (e.g. `npm start`), sending nothing that would make it reach outside the machine (no
 * capture of a public page, no real tweet id, no media host); EASEL_API_KEY, EASEL_COOKIE and
 * EASEL_INTERNAL_SECRET, when set, let requests past the credential checks.
 *
 * Exits 1 on any 5xx, lost connection, answer past the route's time-out or answer that is not the
 * envelope; 0 otherwise.
 */
import { parseArgs } from 'node:util';
import * as fc from 'fast-check';
import '../support/env.ts';
import { freshClient } from '../support/client.ts';
import { requestArbitrary, send, Tally, timeLimitMs, violation, type FuzzContext, type FuzzRequest } from '../support/fuzz.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    concurrency: { type: 'string', default: '8' },
  },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
if (!Number.isInteger(requests) || requests < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write('usage: npm run fuzz -- [--base URL] [--requests N] [--seed S] [--concurrency C]\n');
  process.exit(2);
}

let baseUrl: string;
let context: FuzzContext;
let stop = async () => undefined as unknown;
if (values.base) {
  baseUrl = values.base.replace(/\/+$/, '');
  const cookie = process.env.EASEL_COOKIE?.trim();
  context = {
    apiKey: process.env.EASEL_API_KEY?.trim() || undefined,
    sessionCookie: cookie || undefined,
    internalSecret: process.env.EASEL_INTERNAL_SECRET?.trim() || undefined,
    organizationId: process.env.EASEL_ORG?.trim() || 'org_demo',
  };
} else {
  process.env.LOG_LEVEL = 'silent';
  const { startFuzzEnvironment } = await import('../support/fuzz-environment.ts');
  const environment = await startFuzzEnvironment();
  baseUrl = environment.baseUrl;
  context = environment.context;
  stop = environment.stop;
}
const loopback = ['127.0.0.1', 'localhost'].includes(new URL(baseUrl).hostname);

const tally = new Tally();
const problems: string[] = [];
let slowest = 0;
let sent = 0;
const started = performance.now();

async function one(request: FuzzRequest): Promise<void> {
  const limit = timeLimitMs(request);
  try {
    // Each request from its own loopback address where the server is local, so the per-address capture limit does not hide the rest.
    const answer = await send(baseUrl, request, { timeoutMs: limit + 2_000, localAddress: loopback ? freshClient() : undefined });
    tally.add(answer, request.method);
    slowest = Math.max(slowest, answer.ms);
    const problem =
      violation(request, answer) ??
      (answer.ms > limit ? `${request.method} ${request.path.slice(0, 120)}: ${Math.round(answer.ms)} ms, over the route's ${limit} ms` : undefined);
    if (problem) problems.push(problem);
  } catch (error) {
    tally.add('lost');
    problems.push(`${request.method} ${request.path.slice(0, 120)}: ${(error as Error).message}`);
  }
}

// Generated in batches (a request can carry a body of hundreds of KB), each batch from its own seed.
const BATCH = 500;
for (let batch = 0; sent < requests; batch++) {
  const list = fc.sample(requestArbitrary(context), { numRuns: Math.min(BATCH, requests - sent), seed: seed + batch });
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < list.length) await one(list[next++]!);
    }),
  );
  sent += list.length;
  // Redrawn in place on a terminal; a log (CI, a file) gets one line per batch instead of a smear of \r.
  process.stderr.write(process.stderr.isTTY ? `\r${sent} / ${requests}` : `${sent} / ${requests}\n`);
}
if (process.stderr.isTTY) process.stderr.write('\n');

let alive = false;
try {
  alive = (await fetch(`${baseUrl}/llms.txt`)).status === 200;
} catch {
  alive = false;
}
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  [
    `Fuzzed ${baseUrl} with ${sent} requests (seed ${seed}, ${concurrency} in flight) in ${seconds.toFixed(1)} s; slowest answer ${Math.round(slowest)} ms.`,
    '',
    '  count  status code',
    tally.toString(),
    '',
    alive ? 'The server still answers.' : 'The server no longer answers.',
    problems.length === 0 ? 'No 5xx, no lost connection, every error the envelope.' : `${problems.length} problem(s):\n- ${problems.slice(0, 30).join('\n- ')}`,
    '',
  ].join('\n'),
);
try {
  await stop();
} catch (error) {
  problems.push((error as Error).message);
  process.stdout.write(`${(error as Error).message}\n`);
}
process.exit(problems.length === 0 && alive ? 0 : 1);
