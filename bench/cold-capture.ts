/**
 * A capture on a new container, from process start to its first picture: the capture bundle in
 * fresh processes on one core with an empty TMPDIR, each way Chromium can reach it, interleaved.
 */
import '../test/support/env.ts';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import { writeChromiumPack } from '#infra/assets/chromium.ts';
import { PACK_MANIFEST, unpackChromium } from '#shared/services/capture/chromium-pack.ts';
import type { PackManifest } from '#shared/services/capture/chromium-pack.ts';
import { startTestRuntime } from '../test/support/local.ts';
import { startTargetPages } from '../test/support/target-pages.ts';
import { median } from './lib/measure.ts';
import { ms } from './support/report.ts';
import type { BenchTable } from './support/report.ts';
import { BUNDLES_DIR, COLD_CHILD, bundle, coldChildEnv, eventFor, runChild } from './support/route-bundles.ts';
import type { ChildResult } from './support/route-bundles.ts';

const ROUNDS = Number(process.env.BENCH_COLD_CAPTURE_ROUNDS ?? 5);
/** Lambda at 1,769 MB has one vCPU: every variant runs on this core alone. */
const ONE_CORE = ['taskset', '-c', '0'];
const GOAL_MS = 1000;
/** Warm captures after the cold one in each process: one a run moves by ±20 % on a shared machine. */
const WARM_CALLS = 6;
const PARTS = fileURLToPath(new URL('./support/capture-parts.ts', import.meta.url));
/** The parts bench/support/capture-parts.ts times, in order. */
export const PART_NAMES = ['unpack Chromium', 'launch', 'first capture (new page, load, PNG)', 'second capture (warm)'];

interface Variant {
  name: string;
  env: NodeJS.ProcessEnv;
  /** Drops its files from the page cache before each run, as a container reading them for the first time. */
  coldFiles?: string[];
  runs: ChildResult[];
}

/** Evicts `files` from the page cache (GNU dd's nocache flag: posix_fadvise DONTNEED on the whole file). */
function evict(files: string[]): void {
  for (const file of files) spawnSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
}

export async function bench(): Promise<BenchTable[]> {
  mkdirSync(BUNDLES_DIR, { recursive: true });
  const pages = await startTargetPages();
  Object.assign(process.env, { LOG_LEVEL: 'silent', UNSAFE_TEST_LOOPBACK_PORTS: String(pages.port) });
  const runtime = await startTestRuntime();
  const scratch = mkdtempSync(join(tmpdir(), 'easel-cold-capture-'));
  try {
    const row = FULL_ROUTE_LIST.find((candidate) => candidate.operationId === 'capturePage')!;
    const built = await bundle(row);
    // Beside the bundle, as the stack's bundling hook puts it.
    const pack = await writeChromiumPack(dirname(built.file));
    // What a container image would hold: Chromium unpacked at build time.
    const image = join(scratch, 'image');
    const executable = await unpackChromium(pack, image);
    const imageFiles = (JSON.parse(readFileSync(join(pack, PACK_MANIFEST), 'utf8')) as PackManifest).files.map((file) => join(image, file.path));
    const url = `${pages.origin}/plain?title=cold`;
    const events = join(scratch, 'capture.json');
    const event = () =>
      eventFor(row, {
        method: 'POST',
        path: row.path,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ url, forceRefresh: true })),
      });
    writeFileSync(events, JSON.stringify(Array.from({ length: 1 + WARM_CALLS }, event)));
    // As on Lambda: single-process, and Chromium's CPU counted with the process's.
    const base = { ...coldChildEnv(runtime), CHROMIUM_SINGLE_PROCESS: 'true', BENCH_TREE: '1' };
    const variants: Variant[] = [
      { name: 'brotli, warm-up capture at cold start (before)', env: { ...base, CAPTURE_PRELAUNCH: 'warm-up' }, runs: [] },
      { name: 'brotli, launch at cold start', env: { ...base, CAPTURE_PRELAUNCH: 'launch' }, runs: [] },
      { name: 'zstd pack, launch at cold start (deployed)', env: { ...base, CHROMIUM_PACK: pack, CAPTURE_PRELAUNCH: 'launch' }, runs: [] },
      { name: 'unpacked at build (an image), page cache warm', env: { ...base, CHROMIUM_PATH: executable, CAPTURE_PRELAUNCH: 'launch' }, runs: [] },
      {
        name: 'unpacked at build (an image), read from disk',
        env: { ...base, CHROMIUM_PATH: executable, CAPTURE_PRELAUNCH: 'launch' },
        coldFiles: imageFiles,
        runs: [],
      },
    ];
    const parts: Variant[] = [
      { name: 'brotli', env: { ...base, CHROMIUM_PACK: '' }, runs: [] },
      { name: 'zstd pack', env: { ...base, CHROMIUM_PACK: pack }, runs: [] },
    ];
    // Interleaved, so drift on a shared machine hits them alike; each in an empty TMPDIR.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [variant, args] of [
        ...variants.map((variant) => [variant, [COLD_CHILD, built.file, events]] as const),
        ...parts.map((variant) => [variant, [PARTS, url]] as const),
      ]) {
        const fresh = mkdtempSync(join(scratch, 'tmp-'));
        try {
          if (variant.coldFiles) evict(variant.coldFiles);
          variant.runs.push(await runChild([...args], { ...variant.env, TMPDIR: fresh }, ONE_CORE));
        } finally {
          rmSync(fresh, { recursive: true, force: true });
        }
      }
    }
    const statuses = new Set(variants.flatMap((variant) => variant.runs.flatMap((run) => run.invocations.map((call) => call.status))));
    if ([...statuses].some((status) => status !== 200)) throw new Error(`captures answered ${[...statuses].join('/')}`);
    const first = (variant: Variant) => median(variant.runs.map((run) => run.invocations[0]!.at));
    // The browser's third to seventh captures: where the cold start took a warm-up capture, the request's own was its second.
    const warm = (variant: Variant) => {
      const from = variant.env.CAPTURE_PRELAUNCH === 'warm-up' ? 1 : 2;
      return median(variant.runs.flatMap((run) => run.invocations.slice(from, from + WARM_CALLS - 1).map((call) => call.ms)));
    };
    const before = variants[0]!;
    const deployed = variants[2]!;
    const whole: BenchTable = {
      title: `Cold capture through the handler: fresh process on one core, empty TMPDIR, single-process Chromium (median of ${ROUNDS}, interleaved)`,
      columns: [
        'Chromium',
        'process start to 1st picture',
        'import ms',
        '1st call ms',
        'CPU to 1st picture ms',
        `warm capture ms (${WARM_CALLS - 1} a run)`,
        'warm ÷ before',
        'goal',
        'result',
      ],
      rows: variants.map((variant) => {
        const isGoal = variant === deployed;
        return [
          variant.name,
          ms(first(variant)),
          ms(median(variant.runs.map((run) => run.importMs))),
          ms(median(variant.runs.map((run) => run.invocations[0]!.ms))),
          ms(median(variant.runs.map((run) => run.importCpuMs + run.invocations[0]!.cpuMs))),
          ms(warm(variant)),
          `${(warm(variant) / warm(before)).toFixed(2)}×`,
          isGoal ? `≤ ${GOAL_MS} ms; warm ≤ 1.05×` : '',
          isGoal ? (first(variant) <= GOAL_MS && warm(variant) <= 1.05 * warm(before) ? 'met' : 'MISSED') : '',
        ];
      }),
      notes: [
        `A ${'1920×1080'} PNG of a local page (${url.replace(pages.origin, '')}), answered through the capture bundle (${Math.round(built.bytes / 1024)} KB) with the cache and rate table on the embedded backends.`,
        '"process start to 1st picture": from the process\'s time origin to the first answer; "CPU": the process and its Chromium, all threads, to that answer.',
        `"warm-up capture": a blank page captured at cold start before the request's own (CAPTURE_PRELAUNCH=warm-up); "launch": the browser only. "an image": CHROMIUM_PATH to a folder unpacked beforehand,`,
        'its files evicted from the page cache before each run in the last row (a container reading them from its disk; Lambda reads an image lazily over the network, which only a deployment measures).',
      ],
    };
    const partsTable: BenchTable = {
      title: `Cold capture in parts, raw puppeteer (median of ${ROUNDS}, the same processes' conditions)`,
      columns: ['part', ...parts.map((variant) => variant.name)],
      rows: [
        ['import @sparticuz/chromium + puppeteer-core', ...parts.map((variant) => ms(median(variant.runs.map((run) => run.importMs))))],
        ...PART_NAMES.map((name, index) => [name, ...parts.map((variant) => ms(median(variant.runs.map((run) => run.invocations[index]!.ms))))]),
        ['process start to 1st picture', ...parts.map((variant) => ms(median(variant.runs.map((run) => run.invocations[2]!.at))))],
      ],
      notes: [`The zstd pack: ${pack.replace(dirname(dirname(pack)), '…')}, made by infra/assets/chromium.ts.`],
    };
    return [whole, partsTable];
  } finally {
    await runtime.dispose();
    await pages.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
