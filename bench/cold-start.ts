/**
 * Cold starts as Lambda pays them: each route's deployed bundle in fresh processes, invoked with a
 * request it answers in earnest, beside a bare `node -e 0`. The capture's is bench/cold-capture.ts.
 */
import '../test/support/env.ts';
import { createSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FALLBACK } from '#shared/routes.ts';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import { startTestRuntime } from '../test/support/local.ts';
import { startMediaUpstream } from '../test/support/media-upstream.ts';
import { createFixtures, spendsItsRequest } from '../test/support/route-requests.ts';
import { startTargetPages } from '../test/support/target-pages.ts';
import { startStub, tweetFixture } from '../test/support/upstreams.ts';
import { screenshotLike } from '../test/support/images.ts';
import { median } from './lib/measure.ts';
import { ms } from './support/report.ts';
import type { BenchTable } from './support/report.ts';
import {
  BUNDLES_DIR,
  COLD_CHILD,
  JSON_GOAL_MS,
  SHARED_KEY_NOTE,
  bundle,
  coldChildEnv,
  coldFigures,
  emptyHandler,
  eventFor,
  exportUpload,
  fixtureRequest,
  runChild,
} from './support/route-bundles.ts';
import type { ChildResult, PlannedRequest, Row } from './support/route-bundles.ts';

const ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 5);
/** `BENCH_COLD_ROUTES=getBootstrap,listReleases`: only these routes, for a quick look at one. */
const ONLY = process.env.BENCH_COLD_ROUTES?.split(',').filter(Boolean);
/** `BENCH_COLD_PROFILE=<dir>`: each route's child also writes a CPU profile there (`node --cpu-prof`, open it in Chrome's DevTools). */
const PROFILE_DIR = process.env.BENCH_COLD_PROFILE;
const TWEET_ID = '1647619002162884609';
const EMPTY = '(empty handler: the floor)';
const UNSAMPLED = 'listReleases, traced, unsampled';
const SAMPLED = 'listReleases, traced, sampled';

/** A stand-in X-Ray daemon on loopback that counts what it receives. */
async function startDaemon() {
  const socket = createSocket('udp4');
  let received = 0;
  socket.on('message', () => (received += 1));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, received: () => received, close: () => socket.close() };
}

/** What Lambda sets for a function with active tracing, the invocation sampled ('1') or not. */
const tracedEnv = (daemon: { port: number }, sampled: '0' | '1') => ({
  LAMBDA_TASK_ROOT: '/var/task',
  AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.port}`,
  _X_AMZN_TRACE_ID: `Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8;Sampled=${sampled}`,
});

export async function bench(): Promise<BenchTable[]> {
  rmSync(BUNDLES_DIR, { recursive: true, force: true });
  mkdirSync(BUNDLES_DIR, { recursive: true });
  const syndication = await startStub(() => ({ headers: { 'content-type': 'application/json; charset=utf-8' }, body: tweetFixture(TWEET_ID) }));
  const media = await startMediaUpstream();
  const png = await screenshotLike();
  media.on('https://pbs.twimg.com/media/bench.png', { headers: { 'content-type': 'image/png', 'content-length': String(png.length) }, body: png });
  const pages = await startTargetPages();
  Object.assign(process.env, media.env, { TWEET_UPSTREAM_URL: syndication.url, LOG_LEVEL: 'silent' });
  process.env.UNSAFE_TEST_LOOPBACK_PORTS = `${media.server.port},${pages.port}`;
  const runtime = await startTestRuntime();
  const daemon = await startDaemon();
  const scratch = mkdtempSync(join(tmpdir(), 'easel-cold-'));
  try {
    const fixtures = await createFixtures(runtime);
    // No NODE_OPTIONS, as on Lambda.
    const childEnv = coldChildEnv(runtime);

    // Each route's request: the fixtures' by default, a real input where the row needs one.
    const routes: Row[] = [
      ...FULL_ROUTE_LIST.filter((row) => row.operationId !== 'capturePage'),
      { ...FALLBACK, operationId: 'fallback' } as unknown as Row,
    ].filter((row) => !ONLY || ONLY.includes(row.operationId));
    /** `refresh` writes new events before each process, for a row whose request is spent once answered. */
    const cases: { row: Row; file: string; bytes: number; events: string; env?: NodeJS.ProcessEnv; refresh?: () => Promise<void> }[] = [];
    const upload = await exportUpload(png);
    for (const row of routes) {
      const built = await bundle(row);
      let request: PlannedRequest;
      if (row.operationId === 'postExport') request = { method: 'POST', path: row.path, ...upload };
      else if (row.operationId === 'getImageProxy')
        request = { method: 'GET', path: row.path, query: `url=${encodeURIComponent('https://pbs.twimg.com/media/bench.png')}`, headers: {} };
      else if (row.operationId === 'getTweet') request = { method: 'GET', path: `/api/tweet/${TWEET_ID}`, headers: {} };
      else if (row.operationId === 'getEditorAsset') {
        const script = readdirSync(join(dirname(built.file), 'editor')).find((name) => name.endsWith('.js'));
        request = { method: 'GET', path: `/editor/${script}`, headers: { 'accept-encoding': 'gzip, br' } };
      } else if (row.operationId === 'fallback') request = { method: 'GET', path: '/no/such/route', headers: {} };
      else request = await fixtureRequest(runtime.url, fixtures, row);
      // The cold invocation, then two warm ones in the same process.
      const events = join(scratch, `${row.operationId}.json`);
      writeFileSync(events, JSON.stringify([eventFor(row, request), eventFor(row, request), eventFor(row, request)]));
      const fresh = () => fixtureRequest(runtime.url, fixtures, row).then((next) => eventFor(row, next));
      const refresh = spendsItsRequest(row) ? async () => writeFileSync(events, JSON.stringify([await fresh(), await fresh(), await fresh()])) : undefined;
      cases.push({ row, ...built, events, refresh });
      // What Node's own source maps would cost, and tracing as Lambda runs it: a daemon, the invocation sampled or not.
      if (row.operationId === 'listReleases')
        cases.push(
          { row: { ...row, operationId: 'listReleases, --enable-source-maps' }, ...built, events, env: { ...childEnv, NODE_OPTIONS: '--enable-source-maps' } },
          { row: { ...row, operationId: UNSAMPLED }, ...built, events, env: { ...childEnv, ...tracedEnv(daemon, '0') } },
          { row: { ...row, operationId: SAMPLED }, ...built, events, env: { ...childEnv, ...tracedEnv(daemon, '1') } },
        );
    }
    const emptyEvents = join(scratch, 'empty.json');
    writeFileSync(emptyEvents, JSON.stringify([{}, {}, {}]));
    cases.push({ row: { operationId: EMPTY } as Row, ...emptyHandler(join(scratch, 'empty')), events: emptyEvents });

    // Interleaved, so drift hits them alike.
    const bare: number[] = [];
    const results = new Map<string, ChildResult[]>();
    for (let round = 0; round < ROUNDS + 1; round++) {
      const bareRun = await runChild(['-e', '0'], childEnv);
      if (round > 0) bare.push(bareRun.wallMs);
      for (const item of cases) {
        const profile = PROFILE_DIR
          ? [
              '--cpu-prof',
              `--cpu-prof-dir=${PROFILE_DIR}`,
              `--cpu-prof-name=${item.row.operationId.replace(/\W+/g, '-')}-${round}.cpuprofile`,
              '--cpu-prof-interval=100',
            ]
          : [];
        await item.refresh?.();
        const result = await runChild([...profile, COLD_CHILD, item.file, item.events], item.env ?? childEnv);
        if (round > 0) results.set(item.row.operationId, [...(results.get(item.row.operationId) ?? []), result]);
      }
    }
    fixtures.close();
    const bareMs = median(bare);
    const rows = cases.map(({ row, bytes }) => {
      const runs = results.get(row.operationId)!;
      const figures = coldFigures(runs);
      const cold = figures.coldMs;
      const isJson = ![
        EMPTY,
        'listReleases, --enable-source-maps',
        SAMPLED,
        'postExport',
        'getImageProxy',
        'getHome',
        'getEditorAsset',
        'getDocs',
        'getErrorDocs',
        'getLlms',
        'getLlmsFull',
      ].includes(row.operationId);
      return [
        row.operationId,
        Math.round(bytes / 1024),
        ms(figures.importMs),
        ms(figures.firstMs),
        figures.requests,
        ms(figures.waitingMs),
        ms(cold),
        ms(figures.coldCpuMs),
        ms(median(runs.map((run) => run.invocations[2]!.ms))),
        Math.round(median(runs.map((run) => run.peakRssMiB))),
        figures.statuses,
        ms(figures.wallMs),
        ms(figures.wallMs - bareMs),
        isJson ? `≤ ${JSON_GOAL_MS} ms` : '',
        isJson ? (cold <= JSON_GOAL_MS ? 'met' : 'MISSED') : '',
      ];
    });
    const coldTable: BenchTable = {
      title: `Cold start per route: fresh Node ${process.versions.node} process, import + first invocation (median of ${ROUNDS})`,
      columns: [
        'route',
        'min. KB',
        'import ms',
        '1st call ms',
        'its requests',
        'in flight ms',
        'import + 1st call',
        'its CPU ms',
        'warm call ms',
        'peak RSS MiB',
        'status',
        'process ms',
        'process over bare',
        'goal',
        'result',
      ],
      rows,
      notes: [
        `"import + 1st call": the cold start over a bare Node start, timed in the fresh process from before the import to the first call's answer; the goal applies to it.`,
        `"its requests": the HTTP requests the first call made (DynamoDB, S3, an upstream); "in flight ms": its time with at least one of them sent and not yet answered in full,`,
        `which on loopback is mostly the embedded backend's: dynalite works on one thread, so a call's requests queue there even when they go out together.`,
        `"its CPU ms": the CPU time the process spent in it (all threads), what a function with less than a full vCPU stretches (bench/cost.ts); "peak RSS": the process's high-water mark.`,
        `Bare \`node -e 0\`: ${ms(bareMs)} ms (median). "process ms" is spawn to exit as the parent sees it, less the two warm calls made after the cold one; "process over bare" subtracts the bare start,`,
        `so it also holds what an ES module entry and the harness cost with no route at all: the "${EMPTY}" row.`,
        "Bundles built with the stack's esbuild options (bench-output/bundles/), no NODE_OPTIONS, as on Lambda (a logged stack is source-mapped then, shared/source-maps.ts).",
        "Seeded credentials (an API key of every scope, an owner session); DynamoDB/S3 are the embedded backends on loopback. Status: the first call's answer",
        '(a create or delete repeated in later processes may answer 409/404, still after its DynamoDB call). Goal applies to JSON routes.',
        `"${UNSAMPLED}" and "${SAMPLED}": as Lambda runs a traced function (a daemon's address, the trace header); the sampled process imports the X-Ray SDK`,
        `in its first call and sends a subsegment per AWS call to a stand-in daemon, which received ${daemon.received()} datagrams in this run (a process exits at its last answer, before its last ones go out).`,
        SHARED_KEY_NOTE,
      ],
    };

    return [coldTable];
  } finally {
    await runtime.dispose();
    daemon.close();
    await media.close();
    await syndication.close();
    await pages.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
