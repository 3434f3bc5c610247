/**
 * Lambda memory and cost per million calls. Lambda's CPU grows with memory and it bills memory ×
 * duration, so a call at M MB is modelled as its waiting plus its CPU time over the vCPU share M
 * buys (this machine's x86 CPU time for both architectures); the memory rule prints under its table.
 */
import '../test/support/env.ts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeChromiumPack } from '#infra/assets/chromium.ts';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import type { OperationId } from '#shared/routes.ts';
import { cheapestCpu } from '#infra/constructs/native-modules.ts';
import { startTestRuntime } from '../test/support/local.ts';
import { createFixtures, credentialsFor, requestFor } from '../test/support/route-requests.ts';
import { startTargetPages } from '../test/support/target-pages.ts';
import { screenshotLike } from '../test/support/images.ts';
import sharp from 'sharp';
import { EXPORT_MAX_PIXELS } from '#shared/schemas/export.ts';
import { median } from './lib/measure.ts';
import { ms } from './support/report.ts';
import type { BenchTable } from './support/report.ts';
import { BUNDLES_DIR, COLD_CHILD, bundle, eventFor, exportUpload, runChild } from './support/route-bundles.ts';
import { startRedactionPages } from '../test/support/redaction-pages.ts';
import { cacheTable, captureSizes, objectCost, startPicturePages } from './support/cache-cost.ts';
import type { ChildResult, PlannedRequest, Row } from './support/route-bundles.ts';

const ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 3);
/** Warm calls after the cold one, in each fresh process. */
const WARM = { json: 30, export: 8, capture: 8 } as const;
/** One vCPU (docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html). */
const MB_PER_VCPU = 1769;
export const CANDIDATES_MB = [128, 256, 512, 768, 1024, 1536, 1769, 2048, 3008] as const;
const HEADROOM = 2;
/** The waiting part of a call's whole bill that memory may not exceed. */
const WAITING_SHARE = 0.1;

/** us-east-1 list prices as of `noted` (aws.amazon.com/{lambda,api-gateway,dynamodb,s3}/pricing); check before relying on them. */
export const PRICES = {
  noted: '2026-11-23',
  lambdaRequest: 0.2 / 1e6,
  gbSecond: { arm64: 0.0000133334, x86_64: 0.0000166667 },
  /** Per request, metered in 512 KB steps of its size. */
  httpApiRequest: 1.0 / 1e6,
  readUnit: 0.125 / 1e6,
  writeUnit: 0.625 / 1e6,
  s3Put: 0.005 / 1000,
  s3Get: 0.0004 / 1000,
  /** A standard queue's request (a batch of up to ten messages is one). */
  sqsRequest: 0.4 / 1e6,
} as const;

interface Usage {
  /** A body over 512 KB is billed once per 512 KB. */
  apiRequests: number;
  readUnits: number;
  writeUnits: number;
  /** Objects written to the cache bucket, each PUT and kept until the lifecycle expires it (bench/support/cache-cost.ts). */
  s3Puts: number;
  /** Their size. */
  s3Bytes?: number;
  note: string;
}

interface Workload {
  label: string;
  operationId: OperationId;
  kind: keyof typeof WARM;
  usage: Usage;
  /** Unpinned and pinned to one core. */
  runs?: ChildResult[];
  pinned?: ChildResult[];
  /** Peak memory for the largest input the route accepts, where that is not the measured one. */
  largestInputRssMiB?: number;
  /** The least memory, and why, where the measured peak cannot bound it. */
  floor?: { mb: number; why: string };
}

interface Profile {
  warmMs: number;
  cpuMs: number;
  waitMs: number;
  /** Kept busy while it computes (≥ 1). */
  cores: number;
  coldMs: number;
  coldCpuMs: number;
  coldCores: number;
  peakRssMiB: number;
}

function profileOf(workload: Workload): Profile {
  const runs = workload.runs!;
  const warm = runs.flatMap((run) => run.invocations.slice(2));
  const warmMs = median(warm.map((call) => call.ms));
  const cpuMs = median(warm.map((call) => call.cpuMs));
  // On one core nothing overlaps: what the pinned call took beyond its CPU time was waiting.
  const pinned = workload.pinned?.flatMap((run) => run.invocations.slice(2));
  const waitMs = Math.max(0, pinned ? median(pinned.map((call) => call.ms)) - median(pinned.map((call) => call.cpuMs)) : warmMs - cpuMs);
  // No more than the machine has: beside other work the pinned call's wait can outgrow the whole call.
  const cores = Math.min(availableParallelism(), Math.max(1, cpuMs / Math.max(warmMs - waitMs, 0.001)));
  const coldMs = median(runs.map((run) => run.importMs + run.invocations[0]!.ms));
  const coldCpuMs = median(runs.map((run) => run.importCpuMs + run.invocations[0]!.cpuMs));
  return {
    warmMs,
    cpuMs,
    waitMs,
    cores,
    coldMs,
    coldCpuMs,
    coldCores: Math.max(1, coldCpuMs / coldMs),
    peakRssMiB: Math.max(median(runs.map((run) => run.peakRssMiB)), workload.largestInputRssMiB ?? 0),
  };
}

/** Modelled duration at `mb`: never more cores than it was seen to use. */
function stretched(waitMs: number, cpuMs: number, cores: number, mb: number): number {
  return waitMs + cpuMs / Math.min(mb / MB_PER_VCPU, cores);
}

const warmAt = (p: Profile, mb: number) => stretched(p.waitMs, p.cpuMs, p.cores, mb);
const coldAt = (p: Profile, mb: number) => stretched(Math.max(0, p.coldMs - p.coldCpuMs / p.coldCores), p.coldCpuMs, p.coldCores, mb);

/** The memory the rule printed under the memory table picks. */
export function pickMemory(p: Profile, bill: (mb: number) => { total: number; waiting: number }, floorMb = 0): number {
  const fits = CANDIDATES_MB.filter((mb) => mb >= Math.max(HEADROOM * p.peakRssMiB, floorMb));
  const usable = MB_PER_VCPU * p.cores;
  let index = fits.reduce((best, mb, i) => (Math.abs(mb - usable) < Math.abs(fits[best]! - usable) ? i : best), 0);
  while (index > 0 && bill(fits[index]!).waiting > WAITING_SHARE * bill(fits[index]!).total) index--;
  return fits[index] ?? CANDIDATES_MB.at(-1)!;
}

function costPerMillion(usage: Usage, billedMs: number, mb: number, arch: Arch, waitMs = 0) {
  const million = 1e6;
  const lambdaRequests = PRICES.lambdaRequest * million;
  const gbSeconds = (ms: number) => (mb / 1024) * (ms / 1000) * PRICES.gbSecond[arch] * million;
  const compute = gbSeconds(Math.ceil(billedMs));
  const api = usage.apiRequests * PRICES.httpApiRequest * million;
  const dynamo = (usage.readUnits * PRICES.readUnit + usage.writeUnits * PRICES.writeUnit) * million;
  const s3 = usage.s3Puts * objectCost(usage.s3Bytes ?? 0, 'standard').total;
  return { lambdaRequests, compute, api, dynamo, s3, total: lambdaRequests + compute + api + dynamo + s3, waiting: gbSeconds(waitMs) };
}

type Arch = 'arm64' | 'x86_64';

/** The stack's choice (infra/constructs/easel-function.ts). */
const archOf = (row: Row): Arch => (cheapestCpu(row.nodeModules ?? []) === 'arm64' ? 'arm64' : 'x86_64');

const billAt = (workload: Workload, row: Row, p: Profile) => (mb: number) => costPerMillion(workload.usage, warmAt(p, mb), mb, archOf(row), p.waitMs);

const dollars = (value: number) => (value === 0 ? '—' : `$${value < 0.1 ? value.toFixed(3) : value.toFixed(2)}`);

export async function bench(): Promise<BenchTable[]> {
  mkdirSync(BUNDLES_DIR, { recursive: true });
  const pages = await startTargetPages();
  const text = await startRedactionPages();
  const pictures = await startPicturePages();
  Object.assign(process.env, { LOG_LEVEL: 'silent', UNSAFE_TEST_LOOPBACK_PORTS: [pages.port, text.port, pictures.port].join(',') });
  const runtime = await startTestRuntime();
  const scratch = mkdtempSync(join(tmpdir(), 'easel-cost-'));
  const png = await screenshotLike();
  const upload = await exportUpload(png);
  try {
    const fixtures = await createFixtures(runtime);
    const rowOf = (operationId: OperationId) => FULL_ROUTE_LIST.find((row) => row.operationId === operationId)! as Row;
    const workloads: Workload[] = [
      {
        label: 'JSON route, API key (GET /api/v1/releases: one Query)',
        operationId: 'listReleases',
        kind: 'json',
        // 3 × 4 KB at half a unit; the key is verified from memory inside the cache window.
        usage: { apiRequests: 1, readUnits: 1.5, writeUnits: 0, s3Puts: 0, note: '1.5 RRU: a 10 KB eventually consistent Query' },
      },
      {
        label: 'JSON route, session (GET /api/v1/bootstrap: eight reads)',
        operationId: 'getBootstrap',
        kind: 'json',
        // Session, user, memberships, organization, workspace, three counts: 0.5 each (membership cached).
        usage: { apiRequests: 1, readUnits: 4, writeUnits: 0, s3Puts: 0, note: '4 RRU: eight small eventually consistent reads (the session is never cached)' },
      },
      {
        label: 'export (1920×1080 PNG → JPEG, medium)',
        operationId: 'postExport',
        kind: 'export',
        usage: {
          apiRequests: Math.ceil(upload.body.length / (512 * 1024)),
          readUnits: 0,
          writeUnits: 0,
          s3Puts: 0,
          note: `a ${Math.round(upload.body.length / 1024)} KB upload counts as ${Math.ceil(upload.body.length / (512 * 1024))} requests`,
        },
      },
      {
        label: 'capture, cache miss (1920×1080 PNG of a local page)',
        operationId: 'capturePage',
        kind: 'capture',
        usage: {
          apiRequests: 1,
          readUnits: 1,
          writeUnits: 2,
          s3Puts: 1,
          note: '1 RRU cache look-up, 2 WRU rate counter and cache entry, 1 S3 PUT and its storage',
        },
        // What Chromium needs depends on the pages people capture, which a local test page cannot bound.
        floor: { mb: 1600, why: '@sparticuz/chromium recommends 1,600 MB or more' },
      },
    ];

    const childEnv = { ...process.env, ...runtime.env, NODE_OPTIONS: '', LOG_LEVEL: 'silent' };
    for (const workload of workloads) {
      const row = rowOf(workload.operationId);
      const built = await bundle(row);
      let request: PlannedRequest;
      if (workload.kind === 'export') request = { method: 'POST', path: row.path, ...upload };
      else if (workload.kind === 'capture') {
        const body = { url: `${pages.origin}/plain?title=cost`, forceRefresh: true };
        request = { method: 'POST', path: row.path, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
      } else {
        const planned = await requestFor(runtime.url, fixtures, row as Row & { operationId: OperationId });
        request = {
          method: planned.method,
          path: planned.path,
          headers: credentialsFor(fixtures, row),
          body: planned.body === undefined ? undefined : Buffer.from(JSON.stringify(planned.body)),
        };
      }
      const events = join(scratch, `${workload.operationId}.json`);
      writeFileSync(events, JSON.stringify(Array.from({ length: 1 + WARM[workload.kind] }, () => eventFor(row, request))));
      // The capture as deployed: Chromium from its zstd pack beside the bundle, launched at cold start.
      const env =
        workload.kind === 'capture'
          ? {
              ...childEnv,
              BENCH_TREE: '1',
              CHROMIUM_SINGLE_PROCESS: 'true',
              CHROMIUM_PACK: await writeChromiumPack(dirname(built.file)),
              CAPTURE_PRELAUNCH: 'launch',
            }
          : childEnv;
      workload.runs = [];
      workload.pinned = [];
      // A capture's cold start includes unpacking Chromium, as in a new sandbox: an empty TMPDIR each time.
      const fresh = () => (workload.kind === 'capture' ? { ...env, TMPDIR: mkdtempSync(join(scratch, 'tmp-')) } : env);
      for (let round = 0; round < ROUNDS; round++) {
        workload.runs.push(await runChild([COLD_CHILD, built.file, events], fresh()));
        // The same on one core, where nothing overlaps: CPU-bound work that used a second core shows here.
        if (workload.kind !== 'json') workload.pinned.push(await runChild([COLD_CHILD, built.file, events], fresh(), ['taskset', '-c', '1']));
      }
      if (workload.kind === 'json') delete workload.pinned;
      if (workload.kind === 'export') {
        // The largest image accepted, flat to fit the body limit: decoding needs the same memory anyway.
        const flat = await sharp({ create: { width: 8000, height: EXPORT_MAX_PIXELS / 8000, channels: 4, background: '#f4f5f7' } })
          .png()
          .toBuffer();
        const largest = await exportUpload(flat);
        const largestEvents = join(scratch, 'largest.json');
        writeFileSync(largestEvents, JSON.stringify([eventFor(row, { method: 'POST', path: row.path, ...largest })]));
        const result = await runChild([COLD_CHILD, built.file, largestEvents], env);
        if (result.invocations[0]?.status !== 200) throw new Error(`the largest export answered ${result.invocations[0]?.status}`);
        workload.largestInputRssMiB = result.peakRssMiB;
      }
      const statuses = new Set(workload.runs.flatMap((run) => run.invocations.map((call) => call.status)));
      if ([...statuses].some((status) => status === undefined || status >= 300)) throw new Error(`${workload.operationId} answered ${[...statuses].join('/')}`);
    }
    fixtures.close();
    // The PNGs a miss stores: this bench's own page, then pages as heavy as real ones.
    const sizes = await captureSizes(runtime.url, [
      { label: 'the plain page above', body: { url: `${pages.origin}/plain?title=cost` } },
      { label: 'a page of text', body: { url: `${text.origin}/corpus` } },
      { label: 'a dashboard', body: { url: `${text.origin}/dashboard` } },
      { label: 'a busy interface', body: { url: `${pictures.origin}/interface` } },
      { label: 'a busy interface, phone', body: { url: `${pictures.origin}/interface`, deviceType: 'mobile' } },
      { label: 'a photograph', body: { url: `${pictures.origin}/photo` } },
      { label: 'a page of text 12,000 px tall, full page', body: { url: `${text.origin}/tall`, fullPage: true } },
    ]);
    const captureWorkload = workloads.find((workload) => workload.kind === 'capture')!;
    captureWorkload.usage.s3Bytes = sizes[0]!.bytes;

    const profiles = workloads.map((workload) => ({ workload, row: rowOf(workload.operationId), profile: profileOf(workload) }));
    const measured: BenchTable = {
      title: `Cost inputs: what each kind of function spends, in fresh processes of its bundle (warm: median of ${ROUNDS} × its warm calls)`,
      columns: ['function', 'warm call ms', 'CPU ms', 'waiting ms', 'cores used', 'cold start ms', 'its CPU ms', 'peak RSS MiB'],
      rows: profiles.map(({ workload, profile: p }) => [
        workload.label,
        ms(p.warmMs),
        ms(p.cpuMs),
        ms(p.waitMs),
        p.cores.toFixed(2),
        ms(p.coldMs),
        ms(p.coldCpuMs),
        Math.round(median(workload.runs!.map((run) => run.peakRssMiB))) +
          (workload.largestInputRssMiB ? ` (largest accepted image: ${Math.round(workload.largestInputRssMiB)})` : ''),
      ]),
      notes: [
        'CPU: all threads of the process, and for the capture the Chromium processes it started. Waiting: a call pinned to one core less its CPU time (export, capture), or the warm call less its CPU (JSON: one thread).',
        '"cores used": CPU time over the time it computes. Cold start: import + first call (the capture\'s includes unpacking and launching Chromium).',
      ],
    };
    const memory: BenchTable = {
      title: `Memory by measurement: modelled warm call / cold start (ms) at each size, one vCPU per ${MB_PER_VCPU} MB`,
      columns: ['function', ...CANDIDATES_MB.map((mb) => `${mb} MB`), 'CPU it can use', 'waiting share at goal', 'configured', 'goal', 'result'],
      rows: profiles.map(({ workload, row, profile: p }) => {
        const bill = billAt(workload, row, p);
        const pick = pickMemory(p, bill, workload.floor?.mb);
        // Neighbouring sizes model alike within the noise, hence the 5 %.
        const asGood = row.memory === pick || (warmAt(p, row.memory) <= 1.05 * warmAt(p, pick) && bill(row.memory).total <= 1.05 * bill(pick).total);
        return [
          workload.label.split(' (')[0]!,
          ...CANDIDATES_MB.map((mb) =>
            mb < Math.max(HEADROOM * p.peakRssMiB, workload.floor?.mb ?? 0) ? '(too small)' : `${Math.round(warmAt(p, mb))} / ${Math.round(coldAt(p, mb))}`,
          ),
          `${Math.round(MB_PER_VCPU * p.cores)} MB`,
          `${Math.round((100 * bill(pick).waiting) / bill(pick).total)} %`,
          `${row.memory} MB`,
          `${pick} MB`,
          asGood ? 'met' : 'MISSED',
        ];
      }),
      notes: [
        `Goal: the usual size nearest the CPU the function can use (one vCPU per ${MB_PER_VCPU} MB × the cores it keeps busy), smaller while its waiting would be over ${100 * WAITING_SHARE} % of the whole bill`,
        `of a call, never below ${HEADROOM}× its peak RSS${
          profiles.some(({ workload }) => workload.floor)
            ? ` or its floor (${profiles
                .filter(({ workload }) => workload.floor)
                .map(({ workload }) => `${workload.label.split(' (')[0]}: ${workload.floor!.mb} MB, ${workload.floor!.why}`)
                .join('; ')})`
            : ''
        }.`,
        'The configured memory meets the goal when it is the pick, or models as fast and as cheap within 5 %. "(too small)": under the floor or twice the peak RSS.',
        "Cold starts are an upper bound: Lambda may give the init phase more CPU than the memory buys. Waits are loopback's, shorter than a region's: a function that waits",
        'longer in production (on DynamoDB across the network, on a page) has a larger waiting share, which can move its pick down.',
      ],
    };
    const costs: BenchTable = {
      title: `Cost per million calls at the configured memory and architecture (us-east-1 list prices noted ${PRICES.noted})`,
      columns: [
        'function',
        'memory, arch',
        'billed ms',
        'Lambda requests',
        'Lambda GB-s',
        'HTTP API',
        'DynamoDB',
        'S3',
        'total',
        'on x86_64',
        'per 1,000 cold starts',
      ],
      rows: profiles.map(({ workload, row, profile: p }) => {
        const arch = archOf(row);
        const billed = warmAt(p, row.memory);
        const cost = costPerMillion(workload.usage, billed, row.memory, arch);
        const x86 = costPerMillion(workload.usage, billed, row.memory, 'x86_64');
        // Lambda bills the init phase too.
        const coldStart = ((row.memory / 1024) * (coldAt(p, row.memory) / 1000) * PRICES.gbSecond[arch] * 1000).toFixed(4);
        return [
          workload.label,
          `${row.memory} MB ${arch}`,
          Math.ceil(billed),
          dollars(cost.lambdaRequests),
          dollars(cost.compute),
          dollars(cost.api),
          dollars(cost.dynamo),
          dollars(cost.s3),
          `**${dollars(cost.total)}**`,
          dollars(x86.total),
          `$${coldStart}`,
        ];
      }),
      notes: [
        ...profiles.map(({ workload }) => `${workload.label}: ${workload.usage.note}.`),
        `Prices: Lambda $0.20 per million requests, $${PRICES.gbSecond.arm64} per GB-s arm64 ($${PRICES.gbSecond.x86_64} x86_64); HTTP API $1.00 per million (512 KB steps);`,
        `DynamoDB on-demand $0.125 per million read and $0.625 per million write units; S3 Standard PUT $0.005 per 1,000 and $0.023 per GB-month for the PNG (${Math.round((captureWorkload.usage.s3Bytes ?? 0) / 1024)} KB) until it expires. Billed duration: the modelled warm call at that memory.`,
      ],
    };
    const capture = profiles.find(({ workload }) => workload === captureWorkload)!;
    const withoutCache = costPerMillion(
      { ...captureWorkload.usage, s3Puts: 0 },
      warmAt(capture.profile, capture.row.memory),
      capture.row.memory,
      archOf(capture.row),
    );
    const cache = cacheTable(sizes, { total: withoutCache.total, warmMs: warmAt(capture.profile, capture.row.memory), memory: capture.row.memory });
    return [measured, memory, costs, cache];
  } finally {
    await runtime.dispose();
    await pages.close();
    await text.close();
    await pictures.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
