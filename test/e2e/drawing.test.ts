/**
 * Drawing as people expect, in the real browser: a freehand pen stroke found in the preview's and
 * the exported file's pixels, zoom that keeps the handles' size on screen, and nothing stored
 * outside the picture.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Annotation, PenAnnotation } from '#editor/src/model/edits.ts';
import { countColour, expectColour, exportDownload, pixelOf, previewSettled, SLOW, text, violations, waitForStatus } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';

/** A white source, so the default red stroke is the only colour on it. */
const SOURCE = { width: 1600, height: 1000 };
const PADDING = 64;
/** The Auto scale: a file's own pixels. */
const SCALE = 1;
const RED = [255, 59, 48] as const;
const WHITE = [255, 255, 255] as const;

const { runtime, workdir, open } = useEditorSuite({ name: 'drawing' });
let sourcePng = '';

beforeAll(async () => {
  sourcePng = join(workdir(), 'white.png');
  await writeFile(
    sourcePng,
    await sharp({ create: { ...SOURCE, channels: 3, background: { r: 255, g: 255, b: 255 } } })
      .png()
      .toBuffer(),
  );
});

interface View {
  box: { x: number; y: number; width: number };
  scale: number;
  crop: { x: number; y: number };
}

async function openWhite() {
  const opened = await open(runtime().url);
  await opened.page.click('#tab-image');
  await (await opened.page.$('input#image-file'))!.uploadFile(sourcePng);
  await waitForStatus(opened.page, '#image-status', 'Opened white.png', '#source-error');
  await opened.page.waitForSelector('#annotate-overlay[data-view]');
  return opened;
}

async function placement(page: Page): Promise<{ view: View; left: number; top: number }> {
  await previewSettled(page);
  return page.$eval('#annotate-overlay', (overlay) => {
    const rect = overlay.getBoundingClientRect();
    return { view: JSON.parse((overlay as HTMLElement).dataset.view!) as View, left: rect.x, top: rect.y };
  });
}

/** A source pixel's position on the page. */
async function at(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const { view, left, top } = await placement(page);
  return { x: left + view.box.x + (x - view.crop.x) * view.scale, y: top + view.box.y + (y - view.crop.y) * view.scale };
}

/** Drags from one source pixel to another. */
async function drag(page: Page, from: [number, number], to: [number, number]): Promise<void> {
  const start = await at(page, ...from);
  const end = await at(page, ...to);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(end.x, end.y, { steps: 6 });
  await page.mouse.up();
}

async function annotations(page: Page): Promise<Annotation[]> {
  return page.evaluate(() => {
    const all = JSON.parse(localStorage.getItem('easel.editor.edits') ?? '[]') as [string, { annotations: Annotation[] }][];
    return all[0]?.[1].annotations ?? [];
  });
}

/** How many preview pixels near a page point are the stroke's red. */
async function previewRed(page: Page, point: { x: number; y: number }, half: number): Promise<number> {
  await previewSettled(page);
  return page.$eval(
    '#preview',
    (canvas, px, py, size, red) => {
      const preview = canvas as HTMLCanvasElement;
      const rect = preview.getBoundingClientRect();
      const ratio = preview.width / rect.width;
      const side = Math.round(2 * size * ratio);
      const data = preview.getContext('2d')!.getImageData(Math.round((px - rect.x - size) * ratio), Math.round((py - rect.y - size) * ratio), side, side).data;
      let count = 0;
      for (let i = 0; i < data.length; i += 4)
        if (Math.abs(data[i]! - red[0]!) < 40 && Math.abs(data[i + 1]! - red[1]!) < 40 && Math.abs(data[i + 2]! - red[2]!) < 40) count += 1;
      return count;
    },
    point.x,
    point.y,
    half,
    [...RED],
  );
}

const undoLabel = (page: Page) => page.$eval('#annotate-undo', (button) => button.getAttribute('aria-label'));

/** A wave across the source's lower half: x from 300 to 1300, y = 650 + 150·sin. */
const wave = (t: number) => ({ x: 300 + 1000 * t, y: 650 + 150 * Math.sin(t * Math.PI * 4) });

/** The overlay's drawn (non-transparent) pixels in a square of `half` CSS pixels around a page point. */
async function overlayInk(page: Page, point: { x: number; y: number }, half: number): Promise<number> {
  return page.$eval(
    '#annotate-overlay',
    (canvas, px, py, size) => {
      const overlay = canvas as HTMLCanvasElement;
      const rect = overlay.getBoundingClientRect();
      const ratio = overlay.width / rect.width;
      const x = Math.round((px - rect.x - size) * ratio);
      const y = Math.round((py - rect.y - size) * ratio);
      const side = Math.round(2 * size * ratio);
      const data = overlay.getContext('2d', { willReadFrequently: true })!.getImageData(x, y, side, side).data;
      let ink = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 128) ink += 1;
      return ink;
    },
    point.x,
    point.y,
    half,
  );
}

describe('drawing', SLOW, () => {
  it('draws a wavy pen stroke as one smooth path in the picture, seen in the preview and in the exported file', async () => {
    // Prepare
    const { page, downloads } = await openWhite();
    await page.keyboard.press('d');

    // Act: sixty samples along two waves, placed once (the preview does not move while drawing)
    const { view, left, top } = await placement(page);
    const onPage = (p: { x: number; y: number }) => ({
      x: left + view.box.x + (p.x - view.crop.x) * view.scale,
      y: top + view.box.y + (p.y - view.crop.y) * view.scale,
    });
    const start = onPage(wave(0));
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    for (let step = 1; step <= 60; step += 1) {
      const p = onPage(wave(step / 60));
      await page.mouse.move(p.x, p.y);
    }
    await page.mouse.up();
    const stored = await annotations(page);
    const crest = await at(page, wave(0.125).x, wave(0.125).y);
    const inPreview = await previewRed(page, crest, 4);
    const png = await exportDownload(page, downloads);

    // Assess: one pen annotation, thinned from the samples, in source pixels on the picture
    expect(stored).toHaveLength(1);
    const pen = stored[0] as PenAnnotation;
    expect(pen.kind).toBe('pen');
    expect(pen.points.length / 2).toBeGreaterThan(4);
    expect(pen.points.length / 2).toBeLessThan(61);
    expect(pen.points.every((value, index) => value >= 0 && value <= (index % 2 === 0 ? SOURCE.width : SOURCE.height))).toBe(true);
    expect(await undoLabel(page)).toBe('Undo (1/100)');
    expect(inPreview).toBeGreaterThan(0);
    // Assess: the file has the stroke where it was drawn (a crest and a trough), and no box around it
    const fileAt = (p: { x: number; y: number }) => pixelOf(png, Math.round((PADDING + p.x) * SCALE), Math.round((PADDING + p.y) * SCALE));
    const redNear = async (p: { x: number; y: number }) =>
      countColour(
        await sharp(png)
          .extract({ left: Math.round((PADDING + p.x) * SCALE) - 8, top: Math.round((PADDING + p.y) * SCALE) - 8, width: 17, height: 17 })
          .toBuffer(),
        RED,
        40,
      );
    expect(await redNear(wave(0.125))).toBeGreaterThan(20);
    expect(await redNear(wave(0.375))).toBeGreaterThan(20);
    expectColour(await fileAt({ x: 300, y: 450 }), WHITE, 4);
    expectColour(await fileAt({ x: 800, y: 850 }), WHITE, 4);
    expect(await countColour(png, RED, 40)).toBeGreaterThan(5000);
    expect(await violations(page)).toEqual([]);
  });

  it('stores nothing for a drag in the margin around the picture, and clamps a drag that leaves it', async () => {
    // Prepare
    const { page } = await openWhite();
    await page.keyboard.press('r');

    // Act: a box drawn entirely in the left margin, then one dragged from the picture out past its corner
    await drag(page, [-50, 100], [-10, 800]);
    const afterMargin = { stored: await annotations(page), undo: await undoLabel(page) };
    await drag(page, [1300, 700], [1640, 1040]);
    const clamped = await annotations(page);

    // Assess
    expect(afterMargin).toEqual({ stored: [], undo: 'Undo (0/100)' });
    expect(clamped).toHaveLength(1);
    expect(clamped[0]).toMatchObject({ kind: 'rect', x1: 1300, y1: 700, x2: SOURCE.width, y2: SOURCE.height });
  });

  it('starts a new pixelate box on a selected blur’s corner rather than resizing the blur, as a new-shape tool does', async () => {
    // Prepare: a blur, drawn and so selected, then the pixelate tool
    const { page } = await openWhite();
    await page.keyboard.press('b');
    await drag(page, [300, 200], [700, 500]);
    const blur = (await annotations(page))[0]!;
    const selectedBlur = await page.$eval('#annotate-overlay', (overlay) => (overlay as HTMLElement).dataset.selected);
    await page.keyboard.press('p');

    // Act: a drag from the blur's bottom-right corner
    await drag(page, [700, 500], [1000, 800]);
    const after = await annotations(page);

    // Assess: the blur as drawn, a pixelate box from its corner, one undo step each
    const whole = (annotation: Annotation) => {
      const shape = annotation as { kind: string; x1: number; y1: number; x2: number; y2: number };
      return { kind: shape.kind, x1: Math.round(shape.x1), y1: Math.round(shape.y1), x2: Math.round(shape.x2), y2: Math.round(shape.y2) };
    };
    expect(selectedBlur).toBe(blur.id);
    expect(after.map(whole)).toEqual([
      { kind: 'blur', x1: 300, y1: 200, x2: 700, y2: 500 },
      { kind: 'pixelate', x1: 700, y1: 500, x2: 1000, y2: 800 },
    ]);
    expect(await undoLabel(page)).toBe('Undo (2/100)');
  });

  it('zooms to 100 % (1), in with Ctrl+wheel around the pointer, out (−), to fit (Fit, 0) and in (+), keeping the selection handles the same size on screen', async () => {
    // Prepare: a box selected at the fitted zoom
    const { page } = await openWhite();
    await page.keyboard.press('r');
    await drag(page, [500, 300], [900, 700]);
    // The select tool shows the handles it resizes by.
    await page.keyboard.press('v');
    const fitted = await placement(page);
    const fittedLevel = await text(page, '#zoom-level');
    const fittedInk = await overlayInk(page, await at(page, 500, 300), 6);

    // Act: 100 % with the 1 key, then Ctrl+wheel up over the box's corner
    await page.keyboard.press('1');
    await page.waitForFunction(() => document.getElementById('zoom-level')?.textContent === '100 %');
    const actual = await placement(page);
    const actualInk = await overlayInk(page, await at(page, 500, 300), 6);
    const corner = await at(page, 500, 300);
    await page.mouse.move(corner.x, corner.y);
    await page.keyboard.down('Control');
    await page.mouse.wheel({ deltaY: -200 });
    await page.keyboard.up('Control');
    await page.waitForFunction((before) => document.getElementById('zoom-level')?.textContent !== before, {}, '100 %');
    const wheeled = await placement(page);
    const cornerAfter = await at(page, 500, 300);
    const wheeledInk = await overlayInk(page, cornerAfter, 6);
    const wheeledLevel = await text(page, '#zoom-level');
    await page.keyboard.press('-');
    await page.waitForFunction((level) => document.getElementById('zoom-level')?.textContent !== level, {}, wheeledLevel);
    const out = await placement(page);
    await page.click('#zoom-fit');
    await page.waitForFunction(() => document.getElementById('zoom-fit')?.getAttribute('aria-pressed') === 'true');
    const back = await placement(page);
    await page.keyboard.press('+');
    await page.waitForFunction(() => document.getElementById('zoom-fit')?.getAttribute('aria-pressed') === 'false');
    const plus = await placement(page);
    await page.keyboard.press('0');
    await page.waitForFunction(() => document.getElementById('zoom-fit')?.getAttribute('aria-pressed') === 'true');

    // Assess: the picture grew on screen, the corner stayed under the pointer, the handle did not grow
    expect(fitted.view.scale).toBeLessThan(1);
    expect(actual.view.scale).toBeCloseTo(1, 2);
    expect(wheeled.view.scale).toBeGreaterThan(1.5);
    expect(Math.abs(cornerAfter.x - corner.x)).toBeLessThan(1);
    expect(Math.abs(cornerAfter.y - corner.y)).toBeLessThan(1);
    expect(fittedInk).toBeGreaterThan(30);
    expect(Math.abs(actualInk - fittedInk)).toBeLessThanOrEqual(fittedInk * 0.15);
    expect(Math.abs(wheeledInk - fittedInk)).toBeLessThanOrEqual(fittedInk * 0.15);
    expect(out.view.scale).toBeCloseTo(wheeled.view.scale / 1.25, 3);
    expect(back.view.scale).toBeCloseTo(fitted.view.scale, 5);
    expect(plus.view.scale).toBeCloseTo(fitted.view.scale * 1.25, 3);
    // The level is a figure when fitted too; the pressed Fit button says it fits.
    expect(fittedLevel).toBe(`${Math.round(fitted.view.scale * 100)} %`);
    expect(await text(page, '#zoom-level')).toBe(fittedLevel);
    expect(await page.$eval('#zoom-fit', (button) => button.getAttribute('aria-pressed'))).toBe('true');
  });

  it('zooms in with a two-finger pinch, around the fingers', async () => {
    // Prepare
    const { page } = await openWhite();
    const before = await placement(page);
    const centre = await at(page, 800, 500);
    const client = await page.createCDPSession();
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', spread: number) =>
      client.send('Input.dispatchTouchEvent', {
        type,
        touchPoints:
          type === 'touchEnd'
            ? []
            : [
                { x: centre.x - spread, y: centre.y, id: 1 },
                { x: centre.x + spread, y: centre.y, id: 2 },
              ],
      });

    // Act: the fingers spread from 40 to 160 px apart
    await touch('touchStart', 20);
    for (const spread of [30, 45, 60, 80]) await touch('touchMove', spread);
    await touch('touchEnd', 0);
    await page.waitForFunction(() => document.getElementById('zoom-fit')?.getAttribute('aria-pressed') === 'false');
    const after = await placement(page);
    const centreAfter = await at(page, 800, 500);

    // Assess: four times the scale, the point between the fingers still between them, nothing drawn
    expect(after.view.scale / before.view.scale).toBeCloseTo(4, 1);
    expect(Math.abs(centreAfter.x - centre.x)).toBeLessThan(2);
    expect(Math.abs(centreAfter.y - centre.y)).toBeLessThan(2);
    expect(await annotations(page)).toEqual([]);
  });

  it('pans with the wheel when zoomed, and draws in the picture’s pixels at any zoom', async () => {
    // Prepare
    const { page } = await openWhite();
    await page.keyboard.press('1');
    await page.waitForFunction(() => document.getElementById('zoom-level')?.textContent === '100 %');
    const before = await placement(page);

    // Act: the wheel pans; then a box drawn at that zoom
    const middle = await at(page, 800, 500);
    await page.mouse.move(middle.x, middle.y);
    await page.mouse.wheel({ deltaY: 80 });
    await page.waitForFunction(
      (y) => JSON.parse((document.getElementById('annotate-overlay') as HTMLElement).dataset.view!).box.y !== y,
      {},
      before.view.box.y,
    );
    const panned = await placement(page);
    await page.keyboard.press('r');
    await drag(page, [750, 450], [850, 550]);

    // Assess
    expect(panned.view.box.y).toBeCloseTo(before.view.box.y - 80, 0);
    const [box] = await annotations(page);
    expect(box).toMatchObject({ kind: 'rect' });
    const shape = box as { x1: number; y1: number; x2: number; y2: number };
    for (const [value, expected] of [
      [shape.x1, 750],
      [shape.y1, 450],
      [shape.x2, 850],
      [shape.y2, 550],
    ] as const)
      expect(Math.abs(value - expected)).toBeLessThan(1);
  });
});
