/**
 * The capture fonts (infra/assets/fonts.ts): bytes against Lambda's limit, and cold and warm captures
 * with them against @sparticuz/chromium's Open Sans alone, side by side in one run.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import type { Browser } from 'puppeteer-core';
import { FONT_SOURCES, buildFontLayer, fontLinksFor, fontsConf, localFontFolder } from '#infra/assets/fonts.ts';
import { FONT_CACHE_DIR, SHIPPED_CACHE, linkFonts } from '#shared/services/capture/font-links.ts';
import { chromiumArgs } from '#shared/services/capture/browsers.ts';
import { ROUTES } from '#shared/routes.ts';
import { ms, percentile } from './support/report.ts';
import type { BenchTable } from './support/report.ts';
import { bundleRowAsset, removeCdkOutdirs } from '../test/support/cdk.ts';
import { startFontPages } from '../test/support/font-pages.ts';

const COLD_RUNS = 15;
const WARM_RUNS = 20;
const LAMBDA_UNZIPPED_LIMIT = 250 * 2 ** 20;
const MB = 2 ** 20;

function bytesUnder(folder: string): number {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/** A fontconfig folder reading `dir` with a cache of its own: a fresh one is what a new Lambda container has. */
function fontconfigFor(dir: string, conf: (options: { dir: string; cacheDir: string }) => string): string {
  const folder = mkdtempSync(join(tmpdir(), 'easel-bench-fontconfig-'));
  writeFileSync(join(folder, 'fonts.conf'), conf({ dir, cacheDir: join(folder, 'cache') }));
  return folder;
}

/** @sparticuz/chromium's own fonts.conf, for the folder it unpacks Open Sans into. */
const sparticuzConf = ({ dir, cacheDir }: { dir: string; cacheDir: string }) =>
  `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>${dir}</dir><cachedir>${cacheDir}</cachedir><config></config></fontconfig>\n`;

const VARIANTS = [
  "Open Sans alone (@sparticuz/chromium's one font)",
  'capture fonts, the layer as shipped (links and its cache)',
  'capture fonts, no cache: fontconfig scans them',
  'capture fonts, warm fontconfig cache',
] as const;
const SHIPPED = 1;
const WARM = 3;
const PAGES = [
  ['Latin text page', '/latin'],
  ['page of every script and an emoji', '/scripts'],
  ['page of emoji sequences, flags and keycaps', '/emoji'],
] as const;

export async function bench(): Promise<BenchTable[]> {
  const pages = await startFontPages();
  const executablePath = await chromium.executablePath();
  // The process model of Lambda, where the cold start counts.
  const args = await chromiumArgs({ singleProcess: true });
  const ours = localFontFolder();
  const openSans = join(tmpdir(), 'fonts');
  const warmFontconfig = fontconfigFor(ours, fontsConf);
  // The layer's folder, read where it was built.
  const layer = mkdtempSync(join(tmpdir(), 'easel-bench-layer-'));
  await buildFontLayer(layer, layer);
  const links = fontLinksFor(layer);
  const shippedCaches = readdirSync(join(layer, SHIPPED_CACHE))
    .filter((name) => name.includes('.cache-'))
    .map((name) => join(FONT_CACHE_DIR, name));
  const made: string[] = [warmFontconfig, layer, links];
  const launch = (fontconfig: string) =>
    puppeteer.launch({ executablePath, headless: 'shell', args, defaultViewport: null, env: { ...process.env, FONTCONFIG_PATH: fontconfig } });
  const capture = async (browser: Browser, path: string) => {
    const page = await browser.newPage();
    try {
      await page.setViewport({ width: 1920, height: 1080 });
      await page.goto(`${pages.origin}${path}`, { waitUntil: 'load' });
      return await page.screenshot({ type: 'png' });
    } finally {
      await page.close();
    }
  };
  const fresh = (variant: number) => {
    if (variant === WARM) return warmFontconfig;
    if (variant === SHIPPED) {
      // A new container: /tmp holds neither the links nor the cache; the capture function makes them.
      for (const path of [links, ...shippedCaches]) rmSync(path, { recursive: true, force: true });
      return layer;
    }
    const folder = variant === 0 ? fontconfigFor(openSans, sparticuzConf) : fontconfigFor(ours, fontsConf);
    made.push(folder);
    return folder;
  };
  const cold = async (variant: number, path: string) => {
    const fontconfig = fresh(variant);
    const started = performance.now();
    if (variant === SHIPPED) linkFonts(layer);
    const browser = await launch(fontconfig);
    try {
      await capture(browser, path);
      return performance.now() - started;
    } finally {
      await browser.close();
    }
  };

  try {
    const coldRows: (string | number)[][] = [];
    for (const [label, path] of PAGES) {
      await cold(WARM, path);
      const times: number[][] = VARIANTS.map(() => []);
      // Interleaved against drift.
      for (let run = 0; run < COLD_RUNS; run += 1) for (const variant of VARIANTS.keys()) times[variant]!.push(await cold(variant, path));
      const base = percentile(times[0]!, 50);
      for (const [variant, name] of VARIANTS.entries()) {
        const p50 = percentile(times[variant]!, 50);
        const goal = variant === SHIPPED && path === '/latin';
        const added = variant === 0 ? '' : `${p50 >= base ? '+' : '−'}${ms(Math.abs(p50 - base))}`;
        coldRows.push([
          `${label}: ${name}`,
          COLD_RUNS,
          ms(p50),
          ms(percentile(times[variant]!, 95)),
          added,
          goal ? '≤ +100 ms' : '',
          goal ? (p50 - base <= 100 ? 'met' : 'MISSED') : '',
        ]);
      }
    }

    const today = await launch(fresh(0));
    const withFonts = await launch(fresh(SHIPPED));
    const warmRows: (string | number)[][] = [];
    try {
      for (const [label, path] of PAGES) {
        for (let i = 0; i < 3; i += 1) for (const browser of [today, withFonts]) await capture(browser, path);
        const times: number[][] = [[], []];
        for (let run = 0; run < WARM_RUNS; run += 1) {
          for (const [index, browser] of [today, withFonts].entries()) {
            const started = performance.now();
            await capture(browser, path);
            times[index]!.push(performance.now() - started);
          }
        }
        const [base, fonts] = times.map((sample) => percentile(sample, 50)) as [number, number];
        const goal = path === '/latin';
        warmRows.push(
          [`${label}: Open Sans alone`, WARM_RUNS, ms(base), ms(percentile(times[0]!, 95)), '', '', ''],
          [
            `${label}: capture fonts`,
            WARM_RUNS,
            ms(fonts),
            ms(percentile(times[1]!, 95)),
            `${(fonts / base).toFixed(2)}×`,
            goal ? '≤ 1.03×' : '',
            goal ? (fonts / base <= 1.03 ? 'met' : 'MISSED') : '',
          ],
        );
      }
    } finally {
      await today.close();
      await withFonts.close();
    }

    const layer = bytesUnder(ours);
    const code = bytesUnder(bundleRowAsset(ROUTES.capturePage));
    const bytes: BenchTable = {
      title: 'Capture fonts: bytes on Lambda (MiB, unzipped)',
      columns: ['measurement', 'MiB', 'goal', 'result'],
      rows: [
        [`fonts layer (${FONT_SOURCES.length} families, fonts.conf, licences)`, (layer / MB).toFixed(1), '', ''],
        ['capture function code (bundle, @sparticuz/chromium, sharp)', (code / MB).toFixed(1), '', ''],
        ['  together', ((layer + code) / MB).toFixed(1), '< 250 MiB', layer + code < LAMBDA_UNZIPPED_LIMIT ? 'met' : 'MISSED'],
      ],
    };
    return [
      bytes,
      {
        title: 'Capture fonts: cold capture, a fresh single-process Chromium to the first 1920×1080 PNG (ms)',
        columns: ['measurement', 'runs', 'p50', 'p95', 'added', 'goal', 'result'],
        rows: coldRows,
        notes: [
          'Each run launches Chromium with its own FONTCONFIG_PATH and an empty /tmp as a new Lambda container has; the shipped',
          "layer's time includes making its links and copying its cache. The variants are interleaved run by run.",
        ],
      },
      {
        title: 'Capture fonts: warm capture on a running browser (ms)',
        columns: ['measurement', 'runs', 'p50', 'p95', 'ratio', 'goal', 'result'],
        rows: warmRows,
        notes: ['Two browsers, one per font set, captures alternating between them; raw puppeteer (page, `load`, PNG), no handler.'],
      },
    ];
  } finally {
    for (const folder of [...made, ...shippedCaches]) rmSync(folder, { recursive: true, force: true });
    removeCdkOutdirs();
    await pages.close();
  }
}
