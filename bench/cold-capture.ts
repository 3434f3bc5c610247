/**
 * A capture on a new container, from process start to its first picture: the capture bundle in
 * fresh processes on one core with an empty TMPDIR, each way Chromium can reach it, interleaved;
 * the zip function and the capture image as `cdk synth` makes them.
 */
import '../test/support/env.ts';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import { IMAGE_ENVIRONMENT, IMAGE_PATHS, bundleFile, inContext, writeCaptureImage } from '#infra/assets/capture-image.ts';
import { CHROMIUM_PACK_FOLDER } from '#infra/assets/chromium.ts';
import { fontLinksFor } from '#infra/assets/fonts.ts';
import { chromiumEntries } from '#infra/constructs/capture-image.ts';
import { bundleRowAsset, removeCdkOutdirs } from '../test/support/cdk.ts';
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
  /** The handler module it runs. */
  bundle: string;
  env: NodeJS.ProcessEnv;
  /** Drops its files from the page cache before each run, as a container reading them for the first time. */
  coldFiles?: string[];
  runs: ChildResult[];
}

/** Evicts `files` from the page cache (GNU dd's nocache flag: posix_fadvise DONTNEED on the whole file). */
function evict(files: string[]): void {
  for (const file of files) spawnSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
}

const filesUnder = (folder: string) =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile());
const mib = (files: string[]) => `${(files.reduce((sum, path) => sum + statSync(path).size, 0) / 2 ** 20).toFixed(1)} MiB`;

export async function bench(): Promise<BenchTable[]> {
  mkdirSync(BUNDLES_DIR, { recursive: true });
  const pages = await startTargetPages();
  Object.assign(process.env, { LOG_LEVEL: 'silent', UNSAFE_TEST_LOOPBACK_PORTS: String(pages.port) });
  const runtime = await startTestRuntime();
  const scratch = mkdtempSync(join(tmpdir(), 'easel-cold-capture-'));
  try {
    const row = FULL_ROUTE_LIST.find((candidate) => candidate.operationId === 'capturePage')!;
    // @sparticuz/chromium's brotli files from the project's node_modules.
    const built = await bundle(row);
    // As `cdk synth` makes them: the zip function's asset (its zstd pack beside the bundle) and the capture image's folder.
    const zip = bundleRowAsset(row, { fonts: false });
    const image = join(scratch, 'image');
    await writeCaptureImage(image, chromiumEntries());
    // The fonts layer's files, which the image holds too: every variant reads the same.
    const fonts = inContext(image, IMAGE_PATHS.fonts);
    // Named by where the fonts sit on Lambda: one an earlier run left points at its deleted folder.
    rmSync(fontLinksFor(IMAGE_PATHS.fonts), { recursive: true, force: true });
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
    const base = { ...coldChildEnv(runtime), CHROMIUM_SINGLE_PROCESS: 'true', BENCH_TREE: '1', FONTCONFIG_PATH: fonts };
    const zipRun = { bundle: join(zip, 'index.mjs'), env: { ...base, CHROMIUM_PACK: join(zip, CHROMIUM_PACK_FOLDER), CAPTURE_PRELAUNCH: 'launch' } };
    const imageRun = {
      bundle: inContext(image, bundleFile(row.handler)),
      env: { ...base, CHROMIUM_PATH: inContext(image, IMAGE_ENVIRONMENT.CHROMIUM_PATH), CAPTURE_PRELAUNCH: 'launch' },
    };
    const variants: Variant[] = [
      { name: 'brotli, warm-up capture at cold start (before)', bundle: built.file, env: { ...base, CAPTURE_PRELAUNCH: 'warm-up' }, runs: [] },
      { name: 'brotli, launch at cold start', bundle: built.file, env: { ...base, CAPTURE_PRELAUNCH: 'launch' }, runs: [] },
      { name: 'zip function, zstd pack (default), page cache warm', ...zipRun, runs: [] },
      { name: 'zip function, zstd pack, read from disk', ...zipRun, coldFiles: [...filesUnder(zip), ...filesUnder(fonts)], runs: [] },
      { name: 'capture image, Chromium unpacked at build, page cache warm', ...imageRun, runs: [] },
      { name: 'capture image, read from disk', ...imageRun, coldFiles: filesUnder(image), runs: [] },
    ];
    const parts: Variant[] = [
      { name: 'brotli', bundle: '', env: { ...base, CHROMIUM_PACK: '' }, runs: [] },
      { name: 'zstd pack', bundle: '', env: { ...base, CHROMIUM_PACK: zipRun.env.CHROMIUM_PACK }, runs: [] },
      { name: 'image', bundle: '', env: imageRun.env, runs: [] },
    ];
    // Interleaved, so drift on a shared machine hits them alike; each in an empty TMPDIR.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [variant, args] of [
        ...variants.map((variant) => [variant, [COLD_CHILD, variant.bundle, events]] as const),
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
    const [before, , zipWarm, , imageWarm] = variants as [Variant, Variant, Variant, Variant, Variant];
    const goals = new Map([
      [zipWarm, { goal: `≤ ${GOAL_MS} ms`, met: (variant: Variant) => first(variant) <= GOAL_MS }],
      [
        imageWarm,
        { goal: `≤ ${GOAL_MS} ms; warm ≤ 1.05× the zip's`, met: (variant: Variant) => first(variant) <= GOAL_MS && warm(variant) <= 1.05 * warm(zipWarm) },
      ],
    ]);
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
        "warm ÷ the zip's",
        'goal',
        'result',
      ],
      rows: variants.map((variant) => [
        variant.name,
        ms(first(variant)),
        ms(median(variant.runs.map((run) => run.importMs))),
        ms(median(variant.runs.map((run) => run.invocations[0]!.ms))),
        ms(median(variant.runs.map((run) => run.importCpuMs + run.invocations[0]!.cpuMs))),
        ms(warm(variant)),
        `${(warm(variant) / warm(before)).toFixed(2)}×`,
        `${(warm(variant) / warm(zipWarm)).toFixed(2)}×`,
        goals.get(variant)?.goal ?? '',
        goals.has(variant) ? (goals.get(variant)!.met(variant) ? 'met' : 'MISSED') : '',
      ]),
      notes: [
        `A ${'1920×1080'} PNG of a local page (${url.replace(pages.origin, '')}), answered through the capture bundle (${Math.round(built.bytes / 1024)} KB) with the cache and rate table on the embedded backends.`,
        '"process start to 1st picture": from the process\'s time origin to the first answer; "CPU": the process and its Chromium, all threads, to that answer.',
        `"warm-up capture": a blank page captured at cold start before the request's own (CAPTURE_PRELAUNCH=warm-up); "launch": the browser only. The zip function: its asset as cdk synth bundles it;`,
        'the capture image: its folder as cdk synth writes it, CHROMIUM_PATH and the bundle in it. "read from disk": every file of the package (the zip with its fonts) evicted from the page cache',
        'before each run, a container reading them from its disk; Lambda reads an image lazily over the network and a zip from its own cache, which only a deployment measures.',
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
      notes: ["The zstd pack made by infra/assets/chromium.ts; the image's Chromium unpacked from it by infra/assets/capture-image.ts."],
    };
    const part = (imagePath: string) => mib(filesUnder(inContext(image, imagePath)));
    const zipTop = readdirSync(zip)
      .map((name) => join(zip, name))
      .filter((path) => statSync(path).isFile());
    const sizes: BenchTable = {
      title: 'What each ships, unpacked',
      columns: ['package', 'Chromium', 'fonts', 'node_modules', 'bundle(s), clean-capture files, package files', 'whole', 'limit'],
      rows: [
        [
          'zip function + fonts layer',
          mib(filesUnder(join(zip, CHROMIUM_PACK_FOLDER))),
          mib(filesUnder(fonts)),
          mib(filesUnder(join(zip, 'node_modules'))),
          mib(zipTop),
          mib([...filesUnder(zip), ...filesUnder(fonts)]),
          '250 MiB',
        ],
        [
          'capture image (both functions), beside the base image',
          part(IMAGE_PATHS.chromium),
          part(IMAGE_PATHS.fonts),
          part(`${IMAGE_PATHS.task}/node_modules`),
          part(`${IMAGE_PATHS.task}/handlers`),
          mib(filesUnder(image)),
          '10 GB with the base image',
        ],
      ],
    };
    return [whole, partsTable, sizes];
  } finally {
    await runtime.dispose();
    await pages.close();
    rmSync(scratch, { recursive: true, force: true });
    removeCdkOutdirs();
  }
}
