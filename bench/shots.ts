/**
 * Release shots on the local runtime: a run of 50 shots through the queue and the shot worker,
 * against the same 50 pages captured one after another through POST /api/screenshot, rounds
 * interleaved; the worker's overhead per shot; and the cost per thousand shots by bench/cost.ts's prices.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setLogSink, setLogTap } from '#shared/log.ts';
import { QUEUES } from '#shared/resources.ts';
import { PRICES } from './cost.ts';
import { ms, percentile } from './support/report.ts';
import type { BenchTable } from './support/report.ts';
import { call, freshClient } from '../test/support/client.ts';
import { createFixtures } from '../test/support/route-requests.ts';
import { startShotPages } from '../test/support/shot-pages.ts';

const SHOTS = 50;
const ROUNDS = Number(process.env.BENCH_SHOTS_ROUNDS ?? 2);
const MEMORY_GB = QUEUES.shots.worker.memory / 1024;

/** The capture time of each `page captured` line, in the order they were written. */
function captureTimes(): { take(): number[] } {
  const times: number[] = [];
  setLogTap((line) => {
    if (line.includes('"msg":"page captured"')) times.push(Number(JSON.parse(line).ms));
  });
  return { take: () => times.splice(0) };
}

const between = (from: string, to: string) => Date.parse(to) - Date.parse(from);

export async function bench(): Promise<BenchTable[]> {
  process.env.LOG_LEVEL = 'warn';
  // The metric lines are written whatever the level: kept out of the bench's output.
  const restoreSink = setLogSink(() => undefined);
  const pages = await startShotPages();
  process.env.UNSAFE_TEST_LOOPBACK_PORTS = String(pages.port);
  const dataDir = await mkdtemp(join(tmpdir(), 'easel-bench-'));
  const { startLocal } = await import('#infra/local/runtime.ts');
  // bench/cost.ts (its prices) sets the test settings: the runtime makes its own queues and endpoints.
  const env = { ...process.env };
  for (const name of ['PUBLIC_BASE_URL', 'DELETION_QUEUE_URL', 'SHOT_QUEUE_URL', 'DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'SQS_ENDPOINT', 'PORT']) delete env[name];
  const runtime = await startLocal({ port: 0, backendPorts: { dynamodb: 0, s3: 0, sqs: 0 }, dataDir, env });
  const fixtures = await createFixtures(runtime);
  const captures = captureTimes();
  const key = { 'x-api-key': fixtures.a.key };
  const urls = Array.from({ length: SHOTS }, (_, index) => `${pages.app}/changing?n=${index}`);
  const sequential = { wall: [] as number[], latency: [] as number[], capture: [] as number[] };
  const queued = {
    wall: [] as number[],
    duration: [] as number[],
    wait: [] as number[],
    capture: [] as number[],
    first: [] as number[],
    compared: [] as number[],
  };

  const oneByOne = async () => {
    captures.take();
    const started = performance.now();
    for (const url of urls) {
      const sent = performance.now();
      // A fresh source address each: the per-IP limit is not what is measured.
      const answer = await call(runtime.url, '/api/screenshot', { body: { url, forceRefresh: true }, from: freshClient() });
      if (answer.status !== 200) throw new Error(`capture answered ${answer.status}`);
      sequential.latency.push(performance.now() - sent);
    }
    sequential.wall.push(performance.now() - started);
    sequential.capture.push(...captures.take());
  };

  const asRun = async () => {
    captures.take();
    const release = await call(runtime.url, '/api/v1/releases', { body: { title: 'Bench', benefitStatement: 'Shots' }, headers: key });
    const path = `/api/v1/releases/${release.body.id}/shots`;
    const started = performance.now();
    const run = await call(runtime.url, path, { body: { shots: urls.map((url, index) => ({ name: `s${index}`, url })) }, headers: key });
    if (run.status !== 202) throw new Error(`run answered ${run.status}`);
    for (;;) {
      const read = await call(runtime.url, path, { headers: key });
      if (read.body.counts.queued + read.body.counts.running === 0) {
        queued.wall.push(performance.now() - started);
        if (read.body.counts.failed > 0) throw new Error(`${read.body.counts.failed} shots failed`);
        for (const shot of read.body.shots) {
          const duration = between(shot.startedAt, shot.finishedAt);
          queued.duration.push(duration);
          queued.wait.push(between(shot.queuedAt, shot.startedAt));
          (shot.changes ? queued.compared : queued.first).push(duration);
        }
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    queued.capture.push(...captures.take());
  };

  try {
    // Warm: the browser, the worker's first picture and the handler's.
    await call(runtime.url, '/api/screenshot', { body: { url: urls[0], forceRefresh: true }, from: freshClient() });
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round % 2 === 0) {
        await oneByOne();
        await asRun();
      } else {
        await asRun();
        await oneByOne();
      }
    }
  } finally {
    setLogTap(undefined);
    setLogSink(restoreSink);
    fixtures.close();
    await runtime.stop();
    await pages.close();
    await rm(dataDir, { recursive: true, force: true });
  }

  const p50 = (values: number[]) => percentile(values, 50);
  const handlerOverhead = p50(sequential.latency) - p50(sequential.capture);
  const workerOverhead = p50(queued.duration) - p50(queued.capture);
  const wallRatio = p50(queued.wall) / p50(sequential.wall);
  // The worker's billed time per shot: its measured duration, at the function's memory on x86_64.
  const seconds = p50(queued.duration) / 1000;
  const perThousand = {
    lambda: 1000 * (PRICES.lambdaRequest + MEMORY_GB * seconds * PRICES.gbSecond.x86_64),
    // A batch of ten sent is one request; each shot is received and deleted on its own (batch size 1).
    sqs: 1000 * PRICES.sqsRequest * (0.1 + 2),
    // Written queued (1 WRU), claimed (1), finished with its report (2), its asset record (2);
    // read: the shot (1 RRU, consistent), its asset (1), the source apps (0.5), earlier releases (0.5).
    dynamodb: 1000 * (6 * PRICES.writeUnit + 3 * PRICES.readUnit),
    s3: 1000 * PRICES.s3Put,
    // Compared: the baseline's shots (≤ 10 × 0.5 RRU), its asset and the diff's (2), the diff's record (2 WRU), a GET and a PUT.
    comparison: 1000 * (7 * PRICES.readUnit + 2 * PRICES.writeUnit + PRICES.s3Get + PRICES.s3Put),
  };
  const total = perThousand.lambda + perThousand.sqs + perThousand.dynamodb + perThousand.s3;
  const dollars = (value: number) => `$${value.toFixed(value < 0.1 ? 4 : 3)}`;
  return [
    {
      title: `Release shots: ${SHOTS} shots as one run (queue + shot worker, ${QUEUES.shots.worker.localConcurrency} at a time locally) against the same ${SHOTS} through POST /api/screenshot one after another, ${ROUNDS} rounds interleaved`,
      columns: ['measure', 'POST /api/screenshot, one by one', 'run of shots', 'ratio'],
      rows: [
        ['wall time of the 50 (ms, p50 of rounds)', ms(p50(sequential.wall)), ms(p50(queued.wall)), `${wallRatio.toFixed(2)}×`],
        ['one shot, p50 (ms): answered / started→finished', ms(p50(sequential.latency)), ms(p50(queued.duration)), ''],
        ['of which the capture, p50 (ms)', ms(p50(sequential.capture)), ms(p50(queued.capture)), ''],
        ['overhead per shot, p50 (ms): the handler / the worker', ms(handlerOverhead), ms(workerOverhead), ''],
        ['a shot started→finished, p50 (ms): nothing to compare / compared', '', `${ms(p50(queued.first))} / ${ms(p50(queued.compared))}`, ''],
        ['queued before a worker took it, p50 (ms)', '', ms(p50(queued.wait)), ''],
      ],
      notes: [
        "The worker's overhead is a shot's time from claim to finish less the capture's p50: claiming, the login lookup, storing the picture and its record, reading its size, looking for a baseline and comparing with it (every round after the first compares), finishing.",
        `${queued.compared.length} of ${queued.duration.length} shots were compared with an earlier round's picture (every round after the first).`,
        'Absolute figures are of this machine (AMD EPYC, 2 cores, shared with other work); the ratio is the measure. Two captures at once share its 2 cores.',
      ],
    },
    {
      title: `Cost per thousand shots (us-east-1 list prices noted ${PRICES.noted}; worker at ${QUEUES.shots.worker.memory} MB x86_64 for the measured ${ms(seconds * 1000)} ms a shot)`,
      columns: ['item', 'per 1,000 shots'],
      rows: [
        ['Lambda (requests and GB-s)', dollars(perThousand.lambda)],
        ['SQS (a tenth of a send, a receive, a delete)', dollars(perThousand.sqs)],
        ['DynamoDB (6 WRU, 3 RRU)', dollars(perThousand.dynamodb)],
        ['S3 (the PUT of the picture)', dollars(perThousand.s3)],
        ['total, nothing to compare with', dollars(total)],
        ['compared with a previous release: add', dollars(perThousand.comparison)],
      ],
      notes: [
        'The run request and the polls are one HTTP API request each ($1.00 per million) for up to 100 shots, and each poll reads every shot (≈ 1 RRU per 8 shots).',
        'Cold starts come on top, as for the capture function: ≈ $0.07 per thousand cold starts (docs/performance.md).',
      ],
    },
  ];
}
