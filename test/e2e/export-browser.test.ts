/**
 * The export made in the browser, judged on files: with the server stopped, each format and preset
 * against what /api/export makes of the same pixels, past the old upload and canvas limits, and
 * with redactions whose original pixels are gone from the file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/expectations.ts';
import { startTestRuntime } from '../support/local.ts';
import { drawBox } from './support/annotating.ts';
import { expectColour, exportDownload, readout, rgb, SLOW, waitForStatus } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';

const { runtime, browser, workdir, open } = useEditorSuite({ name: 'export-browser' });
const PADDING = 64;
/** Just past the old 40 megapixels with its padding: each megapixel more is seconds of drawing and encoding. */
const WIDE = { width: 7900, height: 5000 };
/**
 * Taller than a canvas side (16,384 px), and over the 16 megapixels of one drawing band
 * (editor/src/render/render.ts), so it is drawn in two: no wider than that takes.
 */
const TALL = { width: 900, height: 17000 };
/** Colour bands of the tall source, 1,000 px each, so a pixel says where it came from. */
const BANDS = [
  [200, 40, 40],
  [40, 160, 60],
  [40, 70, 200],
  [220, 180, 40],
] as const;
let desktop = '';
let stripes = '';
let wide = '';
let tall = '';

/** A capture of a real page (the API guide), as a user's desktop capture. */
async function captureDocs(): Promise<Buffer> {
  const page = await browser().newPage();
  try {
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`${runtime().url}/docs`, { waitUntil: 'load' });
    return Buffer.from(await page.screenshot({ type: 'png' }));
  } finally {
    await page.close();
  }
}

/** A PNG of `raw` RGB pixels. */
const png = (raw: Buffer, width: number, height: number) =>
  sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();

/**
 * Noise: a file over the old 4.5 MB response cap, whatever the preset. One 1,024 px tile of it
 * repeated, as a fresh draw of tens of megapixels takes most of a minute on a busy machine; a JPEG
 * encoder gains nothing from the repeats. Strong enough for a file some 10 % over the cap at the
 * low preset, not more: the browser's encode takes longer the more there is to code.
 */
async function noise(width: number, height: number): Promise<Buffer> {
  const TILE = 1024;
  const tile = await sharp({ create: { width: TILE, height: TILE, channels: 3, background: rgb(BANDS[2]), noise: { type: 'gaussian', mean: 128, sigma: 24 } } })
    .raw()
    .toBuffer();
  return sharp(tile, { raw: { width: TILE, height: TILE, channels: 3 } })
    .extend({ right: width - TILE, bottom: height - TILE, extendWith: 'repeat' })
    .jpeg({ quality: 75 })
    .toBuffer();
}

beforeAll(async () => {
  desktop = join(workdir(), 'desktop.png');
  stripes = join(workdir(), 'stripes.png');
  wide = join(workdir(), 'wide.jpg');
  tall = join(workdir(), 'tall.png');
  // One-pixel black and white columns: any original pixel left in a redaction shows as pure black or white.
  const columns = Buffer.alloc(600 * 400 * 3);
  for (let i = 0; i < 600 * 400; i += 1) columns.fill(i % 2 === 0 ? 0 : 255, i * 3, i * 3 + 3);
  const bands = Buffer.alloc(TALL.width * TALL.height * 3);
  for (let index = 0; index < TALL.height / 1000; index += 1) {
    const [r, g, b] = BANDS[index % 4]!;
    const band = Buffer.from(Array.from({ length: TALL.width }, () => [r, g, b]).flat());
    for (let row = 0; row < 1000; row += 1) band.copy(bands, (index * 1000 + row) * TALL.width * 3);
  }
  // Each its own: the page's capture in the browser while sharp's threads make the rest.
  await Promise.all([
    captureDocs().then((file) => writeFile(desktop, file)),
    png(columns, 600, 400).then((file) => writeFile(stripes, file)),
    noise(WIDE.width, WIDE.height).then((file) => writeFile(wide, file)),
    png(bands, TALL.width, TALL.height).then((file) => writeFile(tall, file)),
  ]);
}, 120_000);

async function openFile(page: Page, file: string): Promise<void> {
  await page.click('#tab-image');
  await (await page.$('input#image-file'))!.uploadFile(file);
  await waitForStatus(page, '#image-status', 'Opened', '#source-error');
}

async function choose(page: Page, format: string, quality: string, scale: number): Promise<void> {
  await page.select('#format', format);
  await page.select('#quality', quality);
  await page.click(`input[name="scale"][value="${scale}"]`);
}

/** Exports and reads the file, waiting as long as a picture of tens of megapixels takes on a busy machine. */
async function exportLarge(page: Page, downloads: string): Promise<Buffer> {
  const done = `(document.getElementById('export-status')?.textContent ?? '').startsWith('Exported') || (document.getElementById('export-error')?.textContent ?? '') !== ''`;
  return exportDownload(page, downloads, async () => {
    await page.click('#export-button');
    // Polled from here: one waitForFunction is one protocol call, cut off at the browser's protocolTimeout (60 s).
    await waitFor(async () => ((await page.evaluate(done)) ? true : undefined), 170_000);
  });
}

/** What /api/export makes of `image` (the same pixels, losslessly) as `format` at `preset`. */
async function serverExport(image: Buffer, format: string, preset: string): Promise<Buffer> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'easel.png');
  form.append('format', format);
  form.append('qualityPreset', preset);
  const response = await fetch(`${runtime().url}/api/export`, { method: 'POST', body: form });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe('the export in the browser', SLOW, () => {
  it('makes PNG, JPEG and WebP files with the server stopped, once the page has loaded', async () => {
    // Prepare: a runtime of this test's own, stopped once the editor has its worker and codecs
    const own = await startTestRuntime();
    const { page, downloads } = await open(own.url);
    await openFile(page, desktop);
    await page.waitForSelector('#export-button[data-worker="ready"]');
    await own.dispose();
    expect(
      await fetch(`${own.url}/`).then(
        () => 'reached',
        () => 'unreachable',
      ),
    ).toBe('unreachable');

    for (const [format, type] of [
      ['png', 'png'],
      ['jpeg', 'jpeg'],
      ['webp', 'webp'],
    ] as const) {
      // Act
      await choose(page, format, 'high', 1);
      const file = await exportDownload(page, downloads);

      // Assess: the composition at 1×, in the chosen format
      const metadata = await sharp(file).metadata();
      expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({ format: type, ...(await readout(page)) });
    }
  });

  it('gives each format and preset a file no more than 10 % larger than /api/export makes of the same pixels', { timeout: 180_000 }, async () => {
    // Prepare: a desktop capture at its own pixels, as people export one; the lossless PNG is what the server is given
    const { page, downloads } = await open(runtime().url);
    await openFile(page, desktop);
    await choose(page, 'png', 'high', 1);
    const pixels = await exportDownload(page, downloads);

    // Act: each server export runs while the browser makes its own file, and the next
    const exports: Promise<{ export: string; browser: Buffer; server: Buffer }>[] = [];
    for (const format of ['png', 'jpeg', 'webp']) {
      for (const preset of ['high', 'medium', 'low']) {
        const server = serverExport(pixels, format, preset);
        // Awaited below; until then a failure must not count as unhandled.
        server.catch(() => {});
        await choose(page, format, preset, 1);
        const browser = format === 'png' && preset === 'high' ? pixels : await exportDownload(page, downloads);
        exports.push(server.then((file) => ({ export: `${format} ${preset}`, browser, server: file })));
      }
    }
    const sizes: { export: string; browser: number; server: number; ratio: number }[] = [];
    for (const made of await Promise.all(exports)) {
      expect((await sharp(made.browser).metadata()).width).toBe((await sharp(made.server).metadata()).width);
      sizes.push({
        export: made.export,
        browser: made.browser.length,
        server: made.server.length,
        ratio: Number((made.browser.length / made.server.length).toFixed(3)),
      });
    }

    // Assess: every one within 10 % (the table says which failed, if any)
    expect(
      sizes.filter((row) => row.ratio > 1.1),
      JSON.stringify(sizes),
    ).toEqual([]);
  });

  it(`exports a ${WIDE.width} × ${WIDE.height} picture at 1× as JPEG, past the old 40 megapixels and in a file over 4.5 MB`, { timeout: 180_000 }, async () => {
    // Prepare
    const { page, downloads } = await open(runtime().url);
    await openFile(page, wide);
    await choose(page, 'jpeg', 'low', 1);

    // Act
    const file = await exportLarge(page, downloads);

    // Assess: the whole composition, in a file larger than /api/export may answer
    const metadata = await sharp(file).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({
      format: 'jpeg',
      width: WIDE.width + 2 * PADDING,
      height: WIDE.height + 2 * PADDING,
    });
    expect(metadata.width! * metadata.height!).toBeGreaterThan(40_000_000);
    expect(file.length).toBeGreaterThan(4_500_000);
  });

  it(`exports a ${TALL.width} × ${TALL.height} picture, taller than a canvas, whole and in order across its bands`, { timeout: 180_000 }, async () => {
    // Prepare
    const { page, downloads } = await open(runtime().url);
    await openFile(page, tall);
    await choose(page, 'png', 'high', 1);

    // Act
    const file = await exportLarge(page, downloads);

    // Assess: every 1,000 px band of the source where it belongs, from top to bottom, read from one decoded column
    const metadata = await sharp(file).metadata();
    expect({ width: metadata.width, height: metadata.height }).toEqual({ width: TALL.width + 2 * PADDING, height: TALL.height + 2 * PADDING });
    const column = await sharp(file)
      .extract({ left: PADDING + TALL.width / 2, top: 0, width: 1, height: metadata.height! })
      .removeAlpha()
      .raw()
      .toBuffer();
    for (let index = 0; index < TALL.height / 1000; index += 1) {
      for (const within of [100, 500, 900]) {
        const y = PADDING + index * 1000 + within;
        expectColour([...column.subarray(y * 3, y * 3 + 3)], BANDS[index % 4]!, 4);
      }
    }
  });

  it('exports at ½×, half the composition in each direction', async () => {
    // Prepare
    const { page, downloads } = await open(runtime().url);
    await openFile(page, stripes);
    await choose(page, 'png', 'high', 0.5);

    // Act
    const file = await exportDownload(page, downloads);

    // Assess: the button reads ½×, and the file is half of 600 × 400 and its padding
    const metadata = await sharp(file).metadata();
    expect(await page.$eval('input[name="scale"][value="0.5"] + span', (span) => span.firstChild?.textContent)).toBe('½×');
    expect({ width: metadata.width, height: metadata.height }).toEqual({ width: (600 + 2 * PADDING) / 2, height: (400 + 2 * PADDING) / 2 });
  });

  it('says which scale it exported at when the chosen one is wider than a canvas, and the file has that scale', { timeout: 180_000 }, async () => {
    // Prepare: 9000 px wide, so 2× would be wider than a browser canvas
    const banner = join(workdir(), 'banner.png');
    await writeFile(
      banner,
      await sharp({ create: { width: 9000, height: 100, channels: 3, background: rgb(BANDS[1]) } })
        .png()
        .toBuffer(),
    );
    const { page, downloads } = await open(runtime().url);
    await openFile(page, banner);
    await choose(page, 'jpeg', 'low', 2);

    // Act
    const file = await exportLarge(page, downloads);

    // Assess: the status names the scale made, below 2×, and the file is the composition at that scale
    const status = await page.$eval('#export-status', (element) => element.textContent ?? '');
    const made = Number(/^Exported and downloaded at ([\d.]+)×, the largest scale that can be made \(2× would be too large\):$/.exec(status)?.[1]);
    const metadata = await sharp(file).metadata();
    expect(made, status).toBeGreaterThan(1);
    expect(made).toBeLessThan(2);
    expect({ width: metadata.width, height: metadata.height }).toEqual({
      width: Math.round((9000 + 2 * PADDING) * made),
      height: Math.round((100 + 2 * PADDING) * made),
    });
    expect(metadata.width).toBeLessThanOrEqual(16_384);
  });

  it.each(['png', 'jpeg', 'webp'])('leaves no original pixel under a blur or a pixelate box in a %s file', async (format) => {
    // Prepare: fine stripes, blurred on the left and pixelated on the right
    const { page, downloads } = await open(runtime().url);
    await openFile(page, stripes);
    await drawBox(page, 'blur', [40, 60], [260, 340]);
    await drawBox(page, 'pixelate', [340, 60], [560, 340]);
    // At 1×, where the stripes reach the file as they are, not smoothed by scaling.
    await choose(page, format, 'high', 1);

    // Act
    const file = await exportDownload(page, downloads);

    // Assess: inside each box (kept 12 px clear of its edges), no black or white pixel of the stripes
    const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const extremes = (left: number, right: number) => {
      let count = 0;
      for (let y = PADDING + 72; y < PADDING + 328; y += 1) {
        for (let x = PADDING + left; x < PADDING + right; x += 1) {
          const value = data[(y * info.width + x) * 3]!;
          if (value < 40 || value > 215) count += 1;
        }
      }
      return count;
    };
    expect(extremes(52, 248), `${format}: pixels of the stripes left under the blur`).toBe(0);
    expect(extremes(352, 548), `${format}: pixels of the stripes left under the pixelation`).toBe(0);
    // Between the boxes the stripes are still there: the check can fail.
    expect(extremes(270, 330)).toBeGreaterThan(1000);
  });
});
