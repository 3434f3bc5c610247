/** How the capture browser draws: on the CPU (its flags) against @sparticuz/chromium's emulated GPU, same pages, interleaved. */
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import type { Browser, Page } from 'puppeteer-core';
import sharp from 'sharp';
import { EMULATED_GPU_FLAGS, chromiumArgs } from '#shared/services/capture/browsers.ts';
import { ms, percentile } from './support/report.ts';
import type { BenchTable } from './support/report.ts';
import { startRedactionPages } from '../test/support/redaction-pages.ts';
import { bandColour, startTallPages } from '../test/support/tall-pages.ts';

const RUNS = 15;
const TALL_RUNS = 5;

/** The flags each way draws with: single-process, as on Lambda. */
async function launch(gpu: boolean): Promise<Browser> {
  const cpu = await chromiumArgs({ singleProcess: true });
  const args = gpu ? [...cpu.filter((flag) => flag !== '--disable-gpu'), ...chromium.args.filter((flag) => EMULATED_GPU_FLAGS.has(flag))] : cpu;
  return puppeteer.launch({ executablePath: await chromium.executablePath(), headless: 'shell', ignoreDefaultArgs: true, args });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Whether every 1,000 px band of a 12,000 px capture shows its own colour (a GPU pass repeats the top past 8,192). */
async function bandsRight(png: Uint8Array): Promise<boolean> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return Array.from({ length: 12 }, (_, band) => band).every((band) => {
    const at = ((band * 1_000 + 500) * info.width + 10) * info.channels;
    return bandColour(band).every((value, channel) => data[at + channel] === value);
  });
}

export async function bench(): Promise<BenchTable[]> {
  const [pages, tall] = await Promise.all([startRedactionPages(), startTallPages()]);
  const ways = [
    { label: 'CPU (--disable-gpu, the capture browser)', browser: await launch(false) },
    { label: 'emulated GPU (SwiftShader, @sparticuz/chromium as shipped)', browser: await launch(true) },
  ];
  const samples = ways.map(() => ({ load: [] as number[], shot: [] as number[], tall: [] as number[], right: true }));
  const pageOf = async (browser: Browser, width: number, height: number): Promise<Page> => {
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    await page.setViewport({ width, height });
    return page;
  };
  try {
    for (let i = 0; i < RUNS + 2; i += 1) {
      for (const [w, way] of ways.entries()) {
        const page = await pageOf(way.browser, 1920, 1080);
        const load = await timed(() => page.goto(`${pages.origin}/dashboard`, { waitUntil: 'load' }));
        const shot = await timed(() => page.screenshot({ type: 'png' }));
        // The first two warm each browser.
        if (i < 2) continue;
        samples[w]!.load.push(load);
        samples[w]!.shot.push(shot);
      }
    }
    for (let i = 0; i < TALL_RUNS + 1; i += 1) {
      for (const [w, way] of ways.entries()) {
        const page = await pageOf(way.browser, 1920, 1080);
        await page.goto(`${tall.origin}/bands`, { waitUntil: 'load' });
        let png: Uint8Array | undefined;
        const took = await timed(async () => (png = await page.screenshot({ type: 'png', fullPage: true })));
        samples[w]!.right &&= await bandsRight(png!);
        if (i >= 1) samples[w]!.tall.push(took);
      }
    }
  } finally {
    for (const way of ways) await way.browser.close();
    await Promise.all([pages.close(), tall.close()]);
  }
  const p50 = (values: number[]) => ms(percentile(values, 50));
  const [cpu, gpu] = samples as [(typeof samples)[0], (typeof samples)[0]];
  const ratio = (key: 'load' | 'shot' | 'tall') => `${(percentile(cpu[key], 50) / percentile(gpu[key], 50)).toFixed(2)}×`;
  return [
    {
      title: `Drawing: the capture browser on the CPU against the emulated GPU, single-process, interleaved, p50 of ${RUNS} (tall: ${TALL_RUNS}) ms`,
      columns: ['drawing', 'load /dashboard', 'viewport screenshot', '12,000 px page in one screenshot', 'every band right'],
      rows: [
        ...ways.map((way, w) => [
          way.label,
          p50(samples[w]!.load),
          p50(samples[w]!.shot),
          p50(samples[w]!.tall),
          samples[w]!.right ? 'yes' : 'no: repeats the top',
        ]),
        ['CPU ÷ emulated GPU', ratio('load'), ratio('shot'), ratio('tall'), ''],
      ],
      notes: [
        'Same pages (test/support/redaction-pages.ts, tall-pages.ts) and flags but the GPU ones; each row of a run alternates the two browsers.',
        'The capture still paints pages past 8,192 image px in tiles (photograph.ts), for remote browsers that draw through a GPU.',
      ],
    },
  ];
}
