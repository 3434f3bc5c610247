/** Redaction's added time: the same capture with and without `redact`, on a typical page and on a 12,000 px full page. */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ms, percentile } from './support/report.ts';
import type { BenchTable } from './support/report.ts';
import { withBenchRuntime } from './support/local-runtime.ts';
import { build } from 'esbuild';
import { bundleOptions } from '#infra/constructs/easel-function.ts';
import type { BrowserBackend } from '#shared/services/capture/browsers.ts';
import { startRedactionPages, TALL_PAGE_PX } from '../test/support/redaction-pages.ts';

// Beside other work one capture moves by hundreds of ms: enough pairs for the median to hold.
const TYPICAL_RUNS = 21;
const TALL_RUNS = 3;
const STEP_RUNS = 15;
const COLD_RUNS = 7;
const ALL = ['email', 'phone', 'card', 'secret', 'ip'] as const;
const STEPS = ['snapshot', 'read', 'detect', 'before', 'after', 'plain', 'painted'] as const;
type Step = (typeof STEPS)[number];

/**
 * Redaction's steps alone on a loaded page: the snapshot of what it draws, reading it into lines,
 * detection, what the capture does before the picture (text read ahead) and after it (the second
 * read, the painting), against the screenshot's own encoding.
 */
async function stepTable(backend: BrowserBackend, origin: string): Promise<BenchTable> {
  const { readAhead, redactPage } = await import('#shared/services/capture/redaction/redact-page.ts');
  const { findSensitive } = await import('#shared/services/capture/redaction/detect.ts');
  const { readSnapshots } = await import('#shared/services/capture/redaction/drawn-text.ts');
  const { joinPieces } = await import('#shared/services/capture/redaction/lines.ts');
  const { PageReader } = await import('#shared/services/capture/redaction/page-reads.ts');
  const { paintPng } = await import('#shared/services/capture/redaction/paint.ts');
  const { Deadline } = await import('#shared/services/capture/deadline.ts');
  const rows: (string | number)[][] = [];
  const lease = await backend.acquire();
  try {
    for (const target of [
      { label: 'typical page (viewport)', path: '/dashboard', area: null },
      { label: '12,000 px full page', path: '/tall', area: { x: 0, y: 0, width: 1920, height: TALL_PAGE_PX } },
    ]) {
      const times = Object.fromEntries(STEPS.map((step) => [step, [] as number[]])) as Record<Step, number[]>;
      let chars = 0;
      for (let i = 0; i < STEP_RUNS + 2; i += 1) {
        const run = {} as Record<Step, number>;
        const timed = async <T>(step: Step, work: () => T | Promise<T>): Promise<T> => {
          const started = performance.now();
          const out = await work();
          run[step] = performance.now() - started;
          return out;
        };
        // A page of its own each run: redaction stops its scripts and animations for good.
        const page = await lease.browser.newPage();
        await page.setViewport({ width: 1920, height: 1080 });
        await page.goto(`${origin}${target.path}`, { waitUntil: 'load' });
        const reader = await PageReader.open(page);
        const snapshot = await timed('snapshot', () => reader.snapshot());
        const text = await timed('read', () => joinPieces(readSnapshots(snapshot).pieces).text);
        chars = text.length;
        await timed('detect', () => findSensitive(text, ALL));
        await reader.close();
        // As a capture runs it: the text read and searched while the page settles, the rest around the picture.
        const ahead = await readAhead(page, ALL);
        const deadline = new Deadline(60_000);
        const started = performance.now();
        await redactPage({
          page,
          kinds: ALL,
          area: target.area,
          deadline,
          ahead: Promise.resolve(ahead),
          take: async (cover) => {
            run.before = performance.now() - started;
            await timed('after', () => cover.boxes({ width: 1920, height: target.area?.height ?? 1080 }));
            return new Uint8Array();
          },
        });
        deadline.dispose();
        // The viewport's screenshot as Chromium encodes it, against the fast encoding painted and encoded by sharp.
        await timed('plain', () => page.screenshot({ type: 'png' }));
        await timed('painted', async () =>
          paintPng(await page.screenshot({ type: 'png', optimizeForSpeed: true }), {
            expected: true,
            boxes: async () => [{ kind: 'email', x: 10, y: 10, width: 200, height: 20 }],
          }),
        );
        await page.close();
        // The first two warm the detectors and the page.
        if (i >= 2) for (const step of STEPS) times[step].push(run[step]);
      }
      const p50 = (values: number[]) => ms(percentile(values, 50));
      rows.push([
        target.label,
        STEP_RUNS,
        chars,
        p50(times.snapshot),
        p50(times.read),
        p50(times.detect),
        p50(times.before),
        p50(times.after),
        `${p50(times.plain)} / ${p50(times.painted)}`,
      ]);
    }
  } finally {
    lease.release();
  }
  return {
    title: 'Redaction steps alone on a loaded page, all five kinds, p50 (ms)',
    columns: [
      'page',
      'runs',
      'characters',
      'snapshot (CDP)',
      'read into lines',
      'detection in Node',
      'before the picture, text read ahead',
      'after the picture (second read)',
      'viewport screenshot: Chromium PNG / fast PNG painted by sharp',
    ],
    rows,
    notes: [
      'Before the picture = as a capture runs it: scripts and animations stopped, the page snapshotted and read again, the search read ahead',
      'reused for the same text, broken images and media checked, parts of lines measured, boxes placed. After = the second read that',
      'catches anything moved meanwhile. The last column: what the picture costs plain, and with boxes to paint (decoded, filled, encoded).',
    ],
  };
}

/** The detectors as the capture bundle carries them: their import and first detection in a fresh process. */
async function coldTable(dir: string): Promise<BenchTable> {
  const outfile = join(dir, 'detect.mjs');
  const built = await build({ ...bundleOptions('shared/services/capture/redaction/detect.ts', []), outfile, metafile: true, logLevel: 'silent' });
  const probe = join(dir, 'probe.mjs');
  await writeFile(
    probe,
    `const t0 = performance.now(); const { findSensitive } = await import(${JSON.stringify(outfile)}); const t1 = performance.now();
await findSensitive('Mail jane@example.com, call +44 20 7946 0958, card 4111 1111 1111 1111, host 203.0.113.4', ${JSON.stringify(ALL)});
const t2 = performance.now(); await findSensitive('Mail joe@example.org from 198.51.100.7', ${JSON.stringify(ALL)});
console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, secondMs: performance.now() - t2 }));`,
  );
  const runs = Array.from({ length: COLD_RUNS }, () => JSON.parse(execFileSync(process.execPath, [probe], { encoding: 'utf8' })) as Record<string, number>);
  const at = (key: string) =>
    ms(
      percentile(
        runs.map((run) => run[key]!),
        50,
      ),
    );
  const kb = Math.round(Object.values(built.metafile.outputs)[0]!.bytes / 1024);
  return {
    title: `Redaction's detectors bundled (${kb} KB minified), fresh process, p50 of ${COLD_RUNS} (ms)`,
    columns: ['import', 'first detection (rules set up)', 'next detection'],
    rows: [[at('importMs'), at('firstMs'), at('secondMs')]],
    notes: ['Paid once per container, by its first capture with redact; the capture bundle evaluates this code only then (a dynamic import).'],
  };
}

export async function bench(): Promise<BenchTable[]> {
  const pages = await startRedactionPages();
  return withBenchRuntime(pages, async (dataDir) => {
    const { browserBackend } = await import('#shared/wiring/capture.ts');
    const { capturePng } = await import('#shared/services/capture/page-capture.ts');
    const { DEFAULT_OPTIONS } = await import('#shared/services/capture/options.ts');
    const { createTargetGuard } = await import('#shared/services/capture/target.ts');
    const { cachingResolver, systemResolver } = await import('#shared/net/guard.ts');
    const guard = createTargetGuard({ loopbackPorts: [pages.port] }, cachingResolver(systemResolver, 30_000));
    const capture = async (path: string, options: object) => {
      const lease = await browserBackend().acquire();
      const started = performance.now();
      const out = await capturePng(
        lease,
        { url: new URL(`${pages.origin}${path}`), deviceType: 'desktop', colorScheme: 'light', timeoutMs: 60_000, options: { ...DEFAULT_OPTIONS, ...options } },
        guard,
      );
      return { ms: performance.now() - started, boxes: out.redactions?.length ?? 0 };
    };

    // The first capture with redact in a process loads the detectors.
    await capture('/dashboard', {});
    const cold = await coldTable(dataDir);
    const steps = await stepTable(browserBackend(), pages.origin);
    const first = await capture('/dashboard', { redact: ALL });
    const rows: (string | number)[][] = [];
    const pairs = [
      { label: 'typical page (viewport, 1920×1080)', path: '/dashboard', options: {}, runs: TYPICAL_RUNS, goal: 60 },
      { label: '12,000 px full page', path: '/tall', options: { fullPage: true }, runs: TALL_RUNS, goal: undefined },
    ];
    for (const pair of pairs) {
      const without: number[] = [];
      const withRedact: number[] = [];
      let boxes = 0;
      for (let i = 0; i < 2; i += 1) await capture(pair.path, pair.options);
      // Interleaved against drift.
      for (let i = 0; i < pair.runs; i += 1) {
        without.push((await capture(pair.path, pair.options)).ms);
        const redacted = await capture(pair.path, { ...pair.options, redact: ALL });
        withRedact.push(redacted.ms);
        boxes = redacted.boxes;
      }
      const [a, b] = [percentile(without, 50), percentile(withRedact, 50)];
      const added = b - a;
      // Each pair ran back to back, so its difference drifts less with the machine's load than either median.
      const paired = percentile(
        withRedact.map((ms, i) => ms - without[i]!),
        50,
      );
      rows.push([
        pair.label,
        pair.runs,
        ms(a),
        ms(b),
        `${added >= 0 ? '+' : '−'}${ms(Math.abs(added))} (${(b / a).toFixed(2)}×)`,
        `${paired >= 0 ? '+' : '−'}${ms(Math.abs(paired))}`,
        boxes,
        pair.goal === undefined ? 'measured' : `≤ +${pair.goal} ms`,
        pair.goal === undefined ? '' : added <= pair.goal ? 'met' : 'MISSED',
      ]);
    }
    return [
      cold,
      steps,
      {
        title: 'Redaction: the same capture through capturePng without and with redact (all five kinds), p50 ms',
        columns: ['page', 'runs', 'without', 'with redact', 'added', 'added, p50 of pairs', 'boxes', 'goal', 'result'],
        rows,
        notes: [
          `The first capture with redact in a process, which loads the detectors: ${ms(first.ms)} ms (${first.boxes} boxes).`,
          'Pages: test/support/redaction-pages.ts (/dashboard: 40 table rows and a log, 10 e-mail addresses, 10 phone numbers,',
          '20 IP addresses among order numbers, dates, versions and times; /tall: 300 rows, an address and an IP address in every tenth).',
        ],
      },
    ];
  });
}
