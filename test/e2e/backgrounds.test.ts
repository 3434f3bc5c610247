/**
 * The editor's backgrounds in a real browser: a custom two-colour gradient at an angle, an image of
 * the user's (file, drop, paste) with blur, kept across a reload — judged in the exported file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser.ts';
import { expectColour, exportDownload, pixelOf, readout, rgb, SLOW, text, violations, waitForStatus } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';

/** Layout constants the tests recompute positions from (editor/src/model/settings.ts defaults). */
/** The Auto scale is a file's own pixels. */
const DEFAULTS = { padding: 64, scale: 1 };
const SOURCE = { width: 300, height: 200, rgb: [250, 200, 0] } as const;
/** The export's size for the source at the defaults, in device pixels. */
const EXPORTED = { width: (SOURCE.width + 2 * DEFAULTS.padding) * DEFAULTS.scale, height: (SOURCE.height + 2 * DEFAULTS.padding) * DEFAULTS.scale };
const BACKGROUND_RGB = [200, 30, 120] as const;
const LEFT_RGB = [230, 20, 20] as const;
const RIGHT_RGB = [20, 40, 230] as const;
/** The first stop of the Ocean preset, what an image background without its image falls back to. */
const OCEAN_RGB = [33, 147, 176] as const;

const { runtime, workdir, open } = useEditorSuite({ name: 'backgrounds' });
let sourcePng = '';
let backgroundPng = '';
/** Left half one colour, right half another, with a sharp edge between: blur must mix them. */
let splitPng = '';

beforeAll(async () => {
  sourcePng = join(workdir(), 'source.png');
  backgroundPng = join(workdir(), 'backdrop.png');
  splitPng = join(workdir(), 'split.png');
  await writeFile(
    sourcePng,
    await sharp({ create: { width: SOURCE.width, height: SOURCE.height, channels: 4, background: { ...rgb(SOURCE.rgb), alpha: 1 } } })
      .png()
      .toBuffer(),
  );
  await writeFile(
    backgroundPng,
    await sharp({ create: { width: 640, height: 480, channels: 3, background: rgb(BACKGROUND_RGB) } })
      .png()
      .toBuffer(),
  );
  const half = await sharp({ create: { width: 300, height: 400, channels: 3, background: rgb(RIGHT_RGB) } })
    .png()
    .toBuffer();
  await writeFile(
    splitPng,
    await sharp({ create: { width: 600, height: 400, channels: 3, background: rgb(LEFT_RGB) } })
      .composite([{ input: half, left: 300, top: 0 }])
      .png()
      .toBuffer(),
  );
});

async function openSource(page: Page): Promise<void> {
  await page.click('#tab-image');
  await (await page.$('input#image-file'))!.uploadFile(sourcePng);
  await waitForStatus(page, '#image-status', 'Opened source.png', '#source-error');
}

/** Sets a field as a picker would, with the input event the editor listens to. */
async function setValue(page: Page, selector: string, value: string): Promise<void> {
  await page.$eval(
    selector,
    (input, next) => {
      (input as HTMLInputElement).value = next;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    value,
  );
}

async function alphaAt(image: Buffer, x: number, y: number): Promise<number> {
  const raw = await sharp(image).ensureAlpha().extract({ left: x, top: y, width: 1, height: 1 }).raw().toBuffer();
  return raw[3]!;
}

async function chooseBackgroundFile(page: Page, file: string): Promise<string> {
  await page.click('input[name="background"][value="image"]');
  await (await page.$('input#bg-file'))!.uploadFile(file);
  return waitForStatus(page, '#bg-status', 'Opened', '#source-error');
}

describe('the editor backgrounds', SLOW, () => {
  it('draws a custom two-colour gradient at its angle, from corner to corner of the export, and shares it in the link', async () => {
    // Prepare
    const { page, downloads } = await open(runtime().url);
    await openSource(page);

    // Act: two colours from their pickers, 45° from the keyboard (Home is 0°, each arrow 5°)
    await setValue(page, '#gradient-from', '#e11d48');
    await setValue(page, '#gradient-to', '#0ea5e9');
    await page.focus('#gradient-angle');
    await page.keyboard.press('Home');
    for (let step = 0; step < 9; step += 1) await page.keyboard.press('ArrowRight');
    const png = await exportDownload(page, downloads);

    // Assess: custom chosen, and the line runs from the bottom-left corner to the top-right one
    expect(await page.$eval('input[name="gradient"]:checked', (input) => (input as HTMLInputElement).value)).toBe('custom');
    expect(await page.$eval('input[name="background"]:checked', (input) => (input as HTMLInputElement).value)).toBe('gradient');
    expect(await text(page, '#gradient-angle-value')).toBe('45°');
    expect(await sharp(png).metadata()).toMatchObject(EXPORTED);
    expectColour(await pixelOf(png, 1, EXPORTED.height - 2), [225, 29, 72]);
    expectColour(await pixelOf(png, EXPORTED.width - 2, 1), [14, 165, 233]);
    // The top-left corner lies 43% along the line (the canvas is wider than tall): a mix of the two.
    expectColour(await pixelOf(png, 1, 1), [133, 88, 142], 12);
    await page.waitForFunction(() => location.hash.includes('ga=45'));
    expect(Object.fromEntries(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)))).toMatchObject({
      bg: 'gradient',
      g: 'custom',
      g1: 'e11d48',
      g2: '0ea5e9',
      ga: '45',
    });
    expect(await violations(page)).toEqual([]);
    await page.$eval('#compose-heading', (heading) => heading.scrollIntoView());
    await saveScreenshot(page, 'backgrounds-custom-gradient');
  });

  it('covers the export with an image chosen from its file picker, leaving the source as it was', async () => {
    // Prepare
    const { page, downloads, consoleErrors } = await open(runtime().url);
    await openSource(page);
    const before = await readout(page);

    // Act
    const status = await chooseBackgroundFile(page, backgroundPng);
    const png = await exportDownload(page, downloads);

    // Assess: the image in every corner, the source in the middle, nothing else changed
    expect(status).toBe('Opened backdrop.png as the background (640 × 480 px).');
    expect(await text(page, '#image-status')).toBe('Opened source.png (300 × 200 px).');
    expect(await readout(page)).toEqual(before);
    for (const [x, y] of [
      [1, 1],
      [EXPORTED.width - 2, 1],
      [1, EXPORTED.height - 2],
      [EXPORTED.width - 2, EXPORTED.height - 2],
    ] as const) {
      expectColour(await pixelOf(png, x, y), BACKGROUND_RGB);
    }
    expectColour(await pixelOf(png, EXPORTED.width / 2, EXPORTED.height / 2), SOURCE.rgb);
    expect(await page.$eval('#preview', (canvas) => canvas.getAttribute('aria-label'))).toContain('on your background image');
    expect(consoleErrors).toEqual([]);
    expect(await violations(page)).toEqual([]);
    await page.$eval('#compose-heading', (heading) => heading.scrollIntoView());
    await saveScreenshot(page, 'backgrounds-image');
  });

  it('takes an image dropped on its own zone as the background, where a drop elsewhere sets the source', async () => {
    // Prepare
    const { page, downloads } = await open(runtime().url);
    await openSource(page);
    await page.click('input[name="background"][value="image"]');
    const box = (await (await page.$('#bg-drop'))!.boundingBox())!;
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const data = { items: [], files: [backgroundPng], dragOperationsMask: 1 };

    // Act
    await page.mouse.dragEnter(point, data);
    await page.mouse.dragOver(point, data);
    const highlighted = await page.$eval('#bg-drop', (zone) => zone.classList.contains('is-dragging'));
    await page.mouse.drop(point, data);
    const status = await waitForStatus(page, '#bg-status', 'Dropped', '#source-error');
    const png = await exportDownload(page, downloads);

    // Assess: the background took it; the source and the page's drop hint are as before
    expect(highlighted).toBe(true);
    expect(status).toBe('Dropped backdrop.png as the background (640 × 480 px).');
    expect(await text(page, '#image-status')).toBe('Opened source.png (300 × 200 px).');
    expect(await page.$eval('#stage-drop', (element) => (element as HTMLElement).hidden)).toBe(true);
    expectColour(await pixelOf(png, 1, 1), BACKGROUND_RGB);
    expectColour(await pixelOf(png, EXPORTED.width / 2, EXPORTED.height / 2), SOURCE.rgb);
    expect(await violations(page)).toEqual([]);
  });

  it('pastes an image from the clipboard as the background with its Paste button, or with Ctrl+V while its controls have focus', async () => {
    // Prepare: an image on the clipboard, as another app would leave it
    const { page, downloads } = await open(runtime().url);
    await openSource(page);
    await page.click('input[name="background"][value="image"]');
    const copy = (width: number, height: number, colour: readonly number[]) =>
      page.evaluate(
        async (w, h, fill) => {
          const canvas = new OffscreenCanvas(w, h);
          const ctx = canvas.getContext('2d')!;
          ctx.fillStyle = `rgb(${fill.join(',')})`;
          ctx.fillRect(0, 0, w, h);
          await navigator.clipboard.write([new ClipboardItem({ 'image/png': await canvas.convertToBlob({ type: 'image/png' }) })]);
        },
        width,
        height,
        [...colour],
      );
    await copy(64, 48, BACKGROUND_RGB);

    // Act: the button
    await page.click('#bg-paste');
    const byButton = await waitForStatus(page, '#bg-status', 'Pasted', '#source-error');
    const png = await exportDownload(page, downloads);
    // Act: the keyboard, with focus on the button
    await copy(32, 24, LEFT_RGB);
    await page.focus('#bg-paste');
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyV');
    await page.keyboard.up('Control');
    await page.waitForFunction(() => document.getElementById('bg-status')?.textContent?.includes('32 × 24'));

    // Assess: the background took both; the source stayed
    expect(byButton).toBe('Pasted an image from the clipboard as the background (64 × 48 px).');
    expect(await text(page, '#bg-status')).toBe('Pasted an image from the clipboard as the background (32 × 24 px).');
    expect(await text(page, '#image-status')).toBe('Opened source.png (300 × 200 px).');
    expectColour(await pixelOf(png, EXPORTED.width - 2, EXPORTED.height - 2), BACKGROUND_RGB);
  });

  it('blurs the image background in layout pixels: a sharp edge mixes, alike at 1× and 2×, and the borders stay opaque', async () => {
    // Prepare: the split image covers the canvas with its edge down the middle
    const { page, downloads } = await open(runtime().url);
    await openSource(page);
    await chooseBackgroundFile(page, splitPng);
    await page.click('input[name="scale"][value="2"]');
    const middle = EXPORTED.width;

    // Act: sharp, then blurred 20 layout px at 2× and at 1×
    const sharpPng = await exportDownload(page, downloads);
    await setValue(page, '#bg-blur', '20');
    const blurred = await exportDownload(page, downloads);
    await page.click('input[name="scale"][value="1"]');
    const blurredAt1 = await exportDownload(page, downloads);

    // Assess: sharp, each side keeps its colour right up to the edge
    expectColour(await pixelOf(sharpPng, middle - 3, 2), LEFT_RGB);
    expectColour(await pixelOf(sharpPng, middle + 3, 2), RIGHT_RGB);
    // Assess: blurred, the edge is a mix, and 20 layout px from it is the same mix at either scale
    const edge = await pixelOf(blurred, middle, 2);
    expectColour(edge, [(LEFT_RGB[0] + RIGHT_RGB[0]) / 2, (LEFT_RGB[1] + RIGHT_RGB[1]) / 2, (LEFT_RGB[2] + RIGHT_RGB[2]) / 2], 16);
    const near2 = await pixelOf(blurred, middle - 20 * 2, 2);
    const near1 = await pixelOf(blurredAt1, middle / 2 - 20, 2);
    expect(near2[0]).toBeGreaterThan(edge[0]! + 30);
    expect(near2[0]).toBeLessThan(LEFT_RGB[0] - 10);
    expectColour(near1, near2, 12);
    // Assess: the corners keep their colour, fully opaque, instead of fading into the blur
    expectColour(await pixelOf(blurred, 0, 0), LEFT_RGB);
    expect(await alphaAt(blurred, 0, 0)).toBe(255);
    expect(await alphaAt(blurred, 2 * EXPORTED.width - 1, 2 * EXPORTED.height - 1)).toBe(255);
    expect(await text(page, '#bg-blur-value')).toBe('20 px');
    expect(await violations(page)).toEqual([]);
    await page.$eval('#compose-heading', (heading) => heading.scrollIntoView());
    await saveScreenshot(page, 'backgrounds-image-blurred');
  });

  it('keeps the image background across a reload, until it is removed', async () => {
    // Prepare
    const { page, downloads, consoleErrors } = await open(runtime().url);
    await chooseBackgroundFile(page, backgroundPng);

    // Act
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    const status = await waitForStatus(page, '#bg-status', 'Using', '#source-error');
    await openSource(page);
    const png = await exportDownload(page, downloads);
    await page.click('#bg-remove');
    const removed = await waitForStatus(page, '#bg-status', 'Removed', '#source-error');
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    const afterRemoval = await waitForStatus(page, '#bg-status', 'These settings ask', '#source-error');

    // Assess
    expect(status).toBe('Using backdrop.png (640 × 480 px), kept in this browser.');
    expect(await page.$eval('input[name="background"]:checked', (input) => (input as HTMLInputElement).value)).toBe('image');
    expectColour(await pixelOf(png, 1, 1), BACKGROUND_RGB);
    expect(removed).toBe('Removed backdrop.png from this browser.');
    expect(afterRemoval).toContain('which this browser does not have');
    expect(consoleErrors).toEqual([]);
    expect(await violations(page)).toEqual([]);
  });

  it('says so and shows the default gradient when a shared link asks for an image background this browser lacks', async () => {
    // Prepare: a browser that has never had a background image, opening a shared link
    const { page, downloads, origin } = await open(runtime().url);
    await page.goto('about:blank');

    // Act
    await page.goto(`${origin}/#bg=image&bl=12&pad=64`);
    await page.waitForSelector('html[data-ready="true"]');
    const status = await waitForStatus(page, '#bg-status', 'These settings ask for a background image', '#source-error');
    await openSource(page);
    const png = await exportDownload(page, downloads);

    // Assess
    expect(status).toBe(
      'These settings ask for a background image, which this browser does not have: the default gradient shows until you choose, drop or paste one.',
    );
    expect(await page.$eval('input[name="background"]:checked', (input) => (input as HTMLInputElement).value)).toBe('image');
    expectColour(await pixelOf(png, 1, 1), OCEAN_RGB, 16);
    expect(await page.$eval('#preview', (canvas) => canvas.getAttribute('aria-label'))).toContain('for want of a background image');
    expect(await violations(page)).toEqual([]);
  });

  it('offers the image controls labelled, at tap-target size and from the keyboard', async () => {
    // Prepare
    const { page } = await open(runtime().url);
    await page.click('input[name="background"][value="image"]');

    // Act: from the Image option, Tab reaches the file picker, Paste, then the blur slider (Remove is off with no image)
    await page.focus('input[name="background"][value="image"]');
    const order: string[] = [];
    for (let step = 0; step < 3; step += 1) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.id ?? ''));
    }
    const sizes = await page.$$eval('#bg-file-button, #bg-paste, #bg-remove, #bg-blur, #gradient-from, #gradient-to', (elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return { id: element.id, small: box.width < 24 || box.height < 24 };
      }),
    );

    const unnamed = await page.$$eval('#compose input, #compose button', (controls) =>
      controls
        .filter(
          (control) => !(control as HTMLInputElement).labels?.length && !control.getAttribute('aria-labelledby') && (control.textContent ?? '').trim() === '',
        )
        .map((control) => control.id),
    );

    // Assess
    expect(unnamed).toEqual([]);
    expect(order).toEqual(['bg-file', 'bg-paste', 'bg-blur']);
    expect(await page.$eval('#bg-remove', (button) => (button as HTMLButtonElement).disabled)).toBe(true);
    expect(await page.$eval('#bg-status', (status) => status.textContent)).toContain('No image yet');
    // The gradient's controls are hidden with an image background; their size is checked where they show.
    expect(sizes.filter((entry) => entry.small && !entry.id.startsWith('gradient-'))).toEqual([]);
    await page.click('input[name="background"][value="gradient"]');
    const gradientSizes = await page.$$eval('#gradient-from, #gradient-to, #gradient-angle', (elements) =>
      elements.map((element) => Math.min(element.getBoundingClientRect().width, element.getBoundingClientRect().height)),
    );
    expect(Math.min(...gradientSizes)).toBeGreaterThanOrEqual(24);
  });
});
