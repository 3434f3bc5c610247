/**
 * The export in the real browser: drawn and encoded in the module worker the build ships, under the
 * page's CSP, with the same pixels and size as the composition; refused plainly where workers cannot draw.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { countColour, expectColour, exportDownload, pixelOf, readout, rgb, SLOW, violations, waitForStatus } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';

/** The source: left half red, right half blue, so a pixel tells where it came from. */
const SOURCE = { width: 400, height: 250 };
const LEFT = [220, 30, 30] as const;
const RIGHT = [30, 60, 220] as const;
const PADDING = 64;
const SCALE = 3;
const WORKER_SCRIPT = /\/editor\/export-worker-[A-Z0-9]{8}\.js$/;

const { runtime, workdir, open } = useEditorSuite({ name: 'export' });
let sourcePng = '';

beforeAll(async () => {
  sourcePng = join(workdir(), 'halves.png');
  const right = await sharp({ create: { width: SOURCE.width / 2, height: SOURCE.height, channels: 3, background: rgb(RIGHT) } })
    .png()
    .toBuffer();
  await writeFile(
    sourcePng,
    await sharp({ create: { ...SOURCE, channels: 3, background: rgb(LEFT) } })
      .composite([{ input: right, left: SOURCE.width / 2, top: 0 }])
      .png()
      .toBuffer(),
  );
});

/** Opens the source, in a light browser frame, PNG high, at 3×. */
async function compose(page: Page): Promise<void> {
  await page.click('#tab-image');
  await (await page.$('input#image-file'))!.uploadFile(sourcePng);
  await waitForStatus(page, '#image-status', 'Opened', '#source-error');
  await page.select('#frame', 'light');
  await page.select('#format', 'png');
  await page.select('#quality', 'high');
  await page.click(`input[name="scale"][value="${SCALE}"]`);
}

async function exportFile(page: Page, downloads: string): Promise<{ png: Buffer; encoder: string }> {
  const png = await exportDownload(page, downloads);
  const encoder = await page.$eval('#export-result', (element) => (element as HTMLElement).dataset.encoder!);
  // Not decoded by the page: the size it shows is the composition's.
  expect(
    await page.$eval('#export-result', (element) => ({
      width: Number((element as HTMLElement).dataset.width),
      height: Number((element as HTMLElement).dataset.height),
    })),
  ).toEqual(await readout(page));
  return { png, encoder };
}

/** The file is the composition at 3×: its size, and each half of the source where it belongs. */
async function expectComposed(page: Page, png: Buffer): Promise<void> {
  const composed = await readout(page);
  const metadata = await sharp(png).metadata();
  expect(metadata.format).toBe('png');
  expect({ width: metadata.width, height: metadata.height }).toEqual(composed);
  expect(composed.width).toBe((SOURCE.width + 2 * PADDING) * SCALE);
  const middle = Math.round(composed.height / 2);
  expectColour(await pixelOf(png, (PADDING + SOURCE.width / 4) * SCALE, middle), LEFT, 4);
  expectColour(await pixelOf(png, (PADDING + (3 * SOURCE.width) / 4) * SCALE, middle), RIGHT, 4);
  // Each half, less the rounded corners and the edges the scaling blends.
  const half = (SOURCE.width / 2) * SOURCE.height * SCALE * SCALE;
  expect(await countColour(png, LEFT, 4)).toBeGreaterThan(half * 0.95);
  expect(await countColour(png, RIGHT, 4)).toBeGreaterThan(half * 0.95);
}

describe('the export encoder', SLOW, () => {
  it("encodes the 3× export in the worker the build ships, and the file has the composition's size and pixels", async () => {
    // Prepare
    const { page, downloads, consoleErrors } = await open(runtime().url);
    const scripts: string[] = [];
    page.on('request', (request) => scripts.push(new URL(request.url()).pathname));
    await compose(page);

    // Act
    const { png, encoder } = await exportFile(page, downloads);

    // Assess: the worker script was fetched once and did the encoding
    expect(encoder).toBe('worker');
    expect(scripts.filter((path) => WORKER_SCRIPT.test(path))).toHaveLength(1);
    await expectComposed(page, png);
    expect(await violations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it("copies the 3× PNG to the clipboard through the worker, at the composition's size", async () => {
    // Prepare
    const { page, consoleErrors } = await open(runtime().url);
    const scripts: string[] = [];
    page.on('request', (request) => scripts.push(new URL(request.url()).pathname));
    await compose(page);

    // Act
    await page.click('#copy-button');
    await waitForStatus(page, '#export-status', 'Copied', '#export-error');
    const copied = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const blob = await item!.getType('image/png');
      return [...new Uint8Array(await blob.arrayBuffer())];
    });

    // Assess: the clipboard holds the same composition as an export, encoded by the worker
    expect(scripts.filter((path) => WORKER_SCRIPT.test(path))).toHaveLength(1);
    const png = Buffer.from(copied);
    await expectComposed(page, png);
    expect(await violations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('says which browsers it needs, and makes no file, where a worker cannot draw', async () => {
    // Prepare: a browser without OffscreenCanvas (Safari before 16.4)
    const { page } = await open(runtime().url);
    await page.evaluateOnNewDocument(() => {
      delete (globalThis as { OffscreenCanvas?: unknown }).OffscreenCanvas;
    });
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    await compose(page);

    // Act
    await page.click('#export-button');
    await page.waitForFunction(() => (document.getElementById('export-error')?.textContent ?? '') !== '');

    // Assess
    expect(await page.$eval('#export-error', (element) => element.textContent)).toContain('Safari (16.4 or later)');
    expect(await page.$eval('#export-result', (element) => element.textContent)).toBe('');
  });
});
