/**
 * Settling's cost (docs/capture.md, "Settling"): a page settled at load against the load-event
 * path it replaced, a full page of an app against raw puppeteer after networkidle0, and when the
 * picture is taken on pages that arrive late or never get quiet.
 */
import type { Browser } from 'puppeteer-core';
import type { WaitStrategy } from '#shared/services/capture/page-capture.ts';
import { ms, percentile } from './support/report.ts';
import type { BenchTable } from './support/report.ts';
import { benchCapture, timed } from './support/capture-run.ts';
import { withBenchRuntime } from './support/local-runtime.ts';
import { BLUE, LIST_ROWS, ROW_PX, startSettlePages } from '../test/support/settle-pages.ts';

// Beside other work one capture moves by tens of ms: enough pairs for the median to hold.
const PAIRS = 21;
const APP_RUNS = 9;
const LATE_RUNS = 3;

/** As a script would do it without Easel: goto until networkidle0, then a full-page screenshot. */
async function rawFullPage(browser: Browser, url: string): Promise<Uint8Array> {
  const page = await browser.newPage();
  try {
    await page.setViewport({ width: 1920, height: 1080 });
    await page.goto(url, { waitUntil: 'networkidle0' });
    return await page.screenshot({ type: 'png', fullPage: true });
  } finally {
    await page.close();
  }
}

/** Whether the app's last row (blue) is at the bottom of the picture. */
async function wholeList(png: Uint8Array): Promise<boolean> {
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const y = LIST_ROWS * ROW_PX - ROW_PX / 2;
  if (info.height <= y) return false;
  const at = (y * info.width + 10) * 3;
  return [data[at], data[at + 1], data[at + 2]].every((value, index) => Math.abs(value! - BLUE[index]!) <= 8);
}

const signed = (value: number) => `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`;

export async function bench(): Promise<BenchTable[]> {
  const pages = await startSettlePages();
  return withBenchRuntime(pages, async () => {
    const { browserBackend } = await import('#shared/wiring/capture.ts');
    const run = await benchCapture([pages.port], 15_000);
    const capture = (path: string, options: object = {}, wait?: WaitStrategy) => run(new URL(`${pages.origin}${path}`), options, wait);
    const loadQuiet: WaitStrategy = { kind: 'load-quiet', quietMs: 50, maxMs: 1_000 };

    // A page settled at load: settling against the load event and a 50 ms quiet network, interleaved.
    for (let i = 0; i < 3; i += 1) {
      await capture('/static');
      await capture('/static', {}, loadQuiet);
    }
    const settledMs: number[] = [];
    const loadMs: number[] = [];
    for (let i = 0; i < PAIRS; i += 1) {
      settledMs.push((await capture('/static')).ms);
      loadMs.push((await capture('/static', {}, loadQuiet)).ms);
    }
    const added = percentile(settledMs, 50) - percentile(loadMs, 50);
    const pairedAdded = percentile(
      settledMs.map((value, i) => value - loadMs[i]!),
      50,
    );

    // A full page of an app whose list arrives after load: the handler's path against raw puppeteer.
    const appMs: number[] = [];
    const rawMs: number[] = [];
    let appWhole = 0;
    let rawWhole = 0;
    const browser = (await browserBackend().acquire()).browser;
    for (let i = 0; i < APP_RUNS + 1; i += 1) {
      const app = await capture('/app', { fullPage: true });
      const raw = await timed(() => rawFullPage(browser, `${pages.origin}/app`));
      // The first pair warms both paths.
      if (i === 0) continue;
      appMs.push(app.ms);
      rawMs.push(raw.ms);
      if (await wholeList(app.value.png)) appWhole += 1;
      if (await wholeList(raw.value)) rawWhole += 1;
    }
    const ratio = percentile(appMs, 50) / percentile(rawMs, 50);

    // When the picture is taken on pages that are late or never quiet, and what the report says.
    const lateRows: (string | number)[][] = [];
    for (const [label, path, options] of [
      ['list fetched 300 ms after load (viewport)', '/app-timer', {}],
      ['chart drawn 500 ms after load', '/chart', {}],
      ['endless feed, full page', '/feed', { fullPage: true }],
      ['a font that never arrives', '/stalled-font', {}],
      ['an image that never arrives', '/stalled-image', {}],
      ['a chart ticking every 100 ms', '/ticking', {}],
    ] as const) {
      const runs: number[] = [];
      let said = '';
      for (let i = 0; i < LATE_RUNS; i += 1) {
        const { ms: took, value } = await capture(path, options);
        runs.push(took);
        const { settled, pending } = value.report;
        said = settled ? 'settled' : `pending: ${pending?.requests ?? 0} requests${pending?.changing ? ', changing' : ''}`;
        if (value.extent?.truncated) said += `; truncated at ${value.extent.capturedHeight} px`;
      }
      lateRows.push([label, LATE_RUNS, ms(percentile(runs, 50)), said]);
    }

    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    return [
      {
        title: 'Settling: a page settled at load (text, 4 images), 1920×1080 through capturePng, p50 ms',
        columns: ['path', 'runs', 'p50', 'p95', 'added', 'added, p50 of pairs', 'goal', 'result'],
        rows: [
          ['load event + network quiet 50 ms', PAIRS, ms(percentile(loadMs, 50)), ms(percentile(loadMs, 95)), '', '', '', ''],
          [
            'settling (network and page still 50 ms)',
            PAIRS,
            ms(percentile(settledMs, 50)),
            ms(percentile(settledMs, 95)),
            signed(added),
            signed(pairedAdded),
            '≤ +50 ms',
            verdict(added <= 50),
          ],
        ],
        notes: ['The two paths interleaved run by run on one browser; settling also installs the page watcher before navigation.'],
      },
      {
        title: `Full page of an app whose list arrives 300 ms after load (${LIST_ROWS * ROW_PX} px), p50 ms`,
        columns: ['path', 'runs', 'p50', 'p95', 'whole list drawn', 'goal', 'result'],
        rows: [
          ['capturePng, fullPage', APP_RUNS, ms(percentile(appMs, 50)), ms(percentile(appMs, 95)), `${appWhole}/${APP_RUNS}`, '', ''],
          ['raw puppeteer: networkidle0, fullPage', APP_RUNS, ms(percentile(rawMs, 50)), ms(percentile(rawMs, 95)), `${rawWhole}/${APP_RUNS}`, '', ''],
          ['  capturePng ÷ raw', '', `${ratio.toFixed(2)}×`, '', '', '≤ 1.3×', verdict(ratio <= 1.3 && appWhole === APP_RUNS)],
        ],
        notes: ['Raw puppeteer runs on the same browser, without interception; networkidle0 waits for 500 ms without a request.'],
      },
      {
        title: 'When the picture is taken on late and restless pages (p50 ms, and what the report says)',
        columns: ['page', 'runs', 'p50', 'report'],
        rows: lateRows,
        notes: ['Pages: test/support/settle-pages.ts. A request unanswered for 2 s stops holding the picture; the page’s own work holds it at most 2 s.'],
      },
    ];
  });
}
