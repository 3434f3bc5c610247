/**
 * Warm latency through the local server: a JSON route against its bare DynamoDB Query, the
 * DynamoDB calls it makes, and what is served from memory without being recomputed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { dynamoDocumentClient } from '#shared/aws/dynamodb.ts';
import { startLocal } from '#infra/local/runtime.ts';
import { MAX_AUTH_CACHE_TTL_MS, SDK_LIMITS } from '#shared/config.ts';
import { createFixtures } from '../test/support/route-requests.ts';
import { startStub, tweetFixture } from '../test/support/upstreams.ts';
import { median } from './lib/measure.ts';
import { ms, percentile } from './support/report.ts';
import type { BenchTable } from './support/report.ts';

const CONNECTIONS = 10;
const ROUNDS = Number(process.env.BENCH_WARM_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 3);
const RELEASES = 20;
const TWEET_ID = '1647619002162884609';

interface Load {
  p50: number;
  p99: number;
  rps: number;
  requests: number;
}

async function cannon(url: string, headers: Record<string, string> = {}, expected: 'success' | 'any' = 'success'): Promise<Load> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  if (result.errors > 0 || (expected === 'success' && result.non2xx > 0)) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average, requests: result.requests.total };
}

/** autocannon's load shape against a function. */
async function loop(call: () => Promise<unknown>): Promise<Load> {
  const times: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        await call();
        times.push(performance.now() - started);
      }
    }),
  );
  return { p50: percentile(times, 50), p99: percentile(times, 99), rps: times.length / SECONDS, requests: times.length };
}

export async function bench(): Promise<BenchTable[]> {
  const syndication = await startStub(() => ({ headers: { 'content-type': 'application/json; charset=utf-8' }, body: tweetFixture(TWEET_ID) }));
  process.env.TWEET_UPSTREAM_URL = syndication.url;
  process.env.LOG_LEVEL = 'silent';
  const dataDir = await mkdtemp(join(tmpdir(), 'easel-bench-warm-'));
  const runtime = await startLocal({ port: 0, backendPorts: { dynamodb: 0, s3: 0, sqs: 0 }, dataDir, workers: false, env: { ...process.env } });
  try {
    const fixtures = await createFixtures(runtime);
    const key = { 'x-api-key': fixtures.a.key };
    for (let i = 0; i < RELEASES; i++) {
      const created = await fetch(`${runtime.url}/api/v1/releases`, {
        method: 'POST',
        headers: { ...key, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Release ${i}`, benefitStatement: 'Faster captures for everyone.' }),
      });
      if (created.status !== 201) throw new Error(`seeding a release answered ${created.status}: ${await created.text()}`);
    }

    // Count the handlers' DynamoDB calls: their client is this process's module singleton.
    const { dynamo } = await import('#shared/wiring/dynamo.ts');
    const calls = new Map<string, number>();
    const send = dynamo.send.bind(dynamo);
    dynamo.send = ((command: { constructor: { name: string } }) => {
      calls.set(command.constructor.name, (calls.get(command.constructor.name) ?? 0) + 1);
      return send(command as never);
    }) as typeof dynamo.send;
    const snapshot = () => {
      const out = Object.fromEntries(calls);
      calls.clear();
      return Object.entries(out)
        .map(([name, count]) => `${name.replace(/Command$/, '')} ${count}`)
        .join(', ');
    };
    const list = () =>
      fetch(`${runtime.url}/api/v1/releases`, { headers: key }).then(async (response) => {
        if (response.status !== 200) throw new Error(`list answered ${response.status}`);
        return (await response.json()) as { releases: unknown[] };
      });
    // A fresh key (never used, so not in the cache), then the same key again at once.
    const fresh = await fixtures.keyWithout('none-of-them');
    calls.clear();
    const listed = await fetch(`${runtime.url}/api/v1/releases`, { headers: { 'x-api-key': fresh } });
    if (listed.status !== 200) throw new Error(`list answered ${listed.status}`);
    const firstCalls = snapshot();
    await fetch(`${runtime.url}/api/v1/releases`, { headers: { 'x-api-key': fresh } });
    const repeatCalls = snapshot();
    const page = await list();
    snapshot();

    const { ReleaseStore } = await import('#shared/store/releases.ts');
    const direct = new ReleaseStore({
      dynamo: dynamoDocumentClient({
        region: 'us-east-1',
        endpoint: runtime.env.DYNAMODB_ENDPOINT,
        credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
        ...SDK_LIMITS,
      }),
      table: runtime.env.WORKSPACE_TABLE!,
    });
    // The service asks for one more than the page to know whether another page follows.
    const query = () => direct.list(fixtures.a.workspaceId, { limit: page.releases.length + 1 });
    if ((await query()).length < page.releases.length) throw new Error('the direct Query and the route disagree on the page');

    const routeRuns: Load[] = [];
    const directRuns: Load[] = [];
    let routeRequests = 0;
    await cannon(`${runtime.url}/api/v1/releases`, key);
    snapshot();
    const loadStarted = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      directRuns.push(await loop(query));
      const run = await cannon(`${runtime.url}/api/v1/releases`, key);
      routeRuns.push(run);
      routeRequests += run.requests;
    }
    const wallMs = performance.now() - loadStarted;
    const windows = Math.ceil(wallMs / MAX_AUTH_CACHE_TTL_MS);
    const runCalls = Object.fromEntries(calls) as Record<string, number>;
    const overRun = Object.entries(runCalls)
      .map(([name, count]) => `${name.replace(/Command$/, '')} ${count}`)
      .join(', ');
    const keyReads = (runCalls.GetItemCommand ?? 0) + (runCalls.BatchGetItemCommand ?? 0);

    const docs = await import('#shared/docs/openapi.ts');
    const replies = await import('#shared/docs/prerendered-replies.ts');
    const openapiBytes = (await (await fetch(`${runtime.url}/openapi.json`)).arrayBuffer()).byteLength;
    const timeOf = (fn: () => unknown) => {
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const started = performance.now();
        fn();
        times.push(performance.now() - started);
      }
      return median(times);
    };
    const timeOfAsync = async (fn: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const started = performance.now();
        await fn();
        times.push(performance.now() - started);
      }
      return median(times);
    };
    // After its first call the reply is served from memory, not serialised again.
    await replies.documentReply('openapi', runtime.env.PUBLIC_BASE_URL);
    const replyMs = await timeOfAsync(() => replies.documentReply('openapi', runtime.env.PUBLIC_BASE_URL));
    const stringifyMs = timeOf(() => JSON.stringify(docs.openApiDocument(runtime.env.PUBLIC_BASE_URL)));
    const openapi = await cannon(`${runtime.url}/openapi.json`);
    await fetch(`${runtime.url}/api/tweet/${TWEET_ID}`);
    const upstreamBefore = syndication.requests.length;
    const tweet = await cannon(`${runtime.url}/api/tweet/${TWEET_ID}`);
    const upstreamDuring = syndication.requests.length - upstreamBefore;
    const floor = await cannon(`${runtime.url}/no/such/route`, {}, 'any');

    const routeP50 = median(routeRuns.map((run) => run.p50));
    const directP50 = median(directRuns.map((run) => run.p50));
    const ratio = routeP50 / directP50;
    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    const latency: BenchTable = {
      title: `Warm latency through the local server: concurrency ${CONNECTIONS}, ${SECONDS} s per run, median of ${ROUNDS} interleaved rounds`,
      columns: ['measurement', 'p50 ms', 'p99 ms', 'req/s', 'goal', 'result'],
      rows: [
        [
          `GET /api/v1/releases (API key, one Query, page of ${page.releases.length})`,
          ms(routeP50),
          ms(median(routeRuns.map((run) => run.p99))),
          Math.round(median(routeRuns.map((run) => run.rps))),
          '',
          '',
        ],
        [
          'the same Query, straight to DynamoDB',
          ms(directP50),
          ms(median(directRuns.map((run) => run.p99))),
          Math.round(median(directRuns.map((run) => run.rps))),
          '',
          '',
        ],
        ['  route ÷ Query (p50)', `${ratio.toFixed(2)}×`, '', '', '≤ 2×', verdict(ratio <= 2)],
        [`GET /openapi.json (${Math.round(openapiBytes / 1024)} KB)`, ms(openapi.p50), ms(openapi.p99), Math.round(openapi.rps), '', ''],
        [
          "  documentReply('openapi') per request, median of 200 (ms)",
          replyMs.toFixed(3),
          '',
          '',
          `< stringify ${stringifyMs.toFixed(2)} ms`,
          verdict(replyMs < stringifyMs / 10),
        ],
        [
          `GET /api/tweet/{id}, cached (upstream asked ${upstreamDuring} times in ${tweet.requests} requests)`,
          ms(tweet.p50),
          ms(tweet.p99),
          Math.round(tweet.rps),
          '0 upstream calls',
          verdict(upstreamDuring === 0),
        ],
        ["404 of the fallback route (the local server's floor)", ms(floor.p50), ms(floor.p99), Math.round(floor.rps), '', ''],
      ],
      notes: [
        "autocannon, the server and DynamoDB (dynalite) share this process and 2 cores: the route also pays the load generator's CPU,",
        'so the ratio is an upper bound on what the route adds. The direct Query runs the same store code with a client of its own.',
      ],
    };
    const repeatFree = !/GetItem|BatchGetItem/.test(repeatCalls);
    const counts: BenchTable = {
      title: "DynamoDB calls made by GET /api/v1/releases (counted on the handlers' client)",
      columns: ['request', 'calls', 'goal', 'result'],
      rows: [
        ['first request with a key not yet verified in this container', firstCalls, '', ''],
        ['the same key again, inside the cache window (AUTH_CACHE_TTL_MS)', repeatCalls, 'Query only', verdict(repeatFree)],
        [
          `the load runs: ${routeRequests} answered requests over ${Math.round(wallMs / 1000)} s`,
          overRun,
          `key reads only per ${MAX_AUTH_CACHE_TTL_MS / 1000} s window`,
          verdict(keyReads <= windows * CONNECTIONS),
        ],
      ],
      notes: [
        'Queries exceed answered requests by the ones still in flight when each run stopped (up to 10 per run).',
        `A key is re-read once its cache entry is older than AUTH_CACHE_TTL_MS (${MAX_AUTH_CACHE_TTL_MS} ms, the default and maximum):`,
        `the requests in flight when it expires (up to ${CONNECTIONS}) may each read it; ${windows} windows passed.`,
      ],
    };
    return [latency, counts];
  } finally {
    await runtime.stop();
    await syndication.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
