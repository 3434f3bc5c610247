/**
 * Annotating in the editor at / in the real browser: drawing each kind with the mouse, selecting,
 * moving, resizing, recolouring, nudging, deleting, undo and redo, the shortcut keys, redaction
 * checked in the exported pixels at 2× and 3×, and annotations kept across a reload.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Annotation, ShapeAnnotation, TextAnnotation } from '#editor/src/model/edits.ts';
import { saveScreenshot } from '../support/browser.ts';
import { expectColour, exportDownload, pixelOf, previewPixel, previewSettled, SLOW, text, violations, waitForStatus } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';

/** The source: white, with two patches of fine black-and-white stripes standing for small text. */
const SOURCE = { width: 600, height: 400 };
const PATTERN_A = { x: 40, y: 40, width: 240, height: 120 };
const PATTERN_B = { x: 320, y: 40, width: 240, height: 120 };
const PADDING = 64;
const RED = [255, 59, 48] as const;
/** Pixelation blocks, in source pixels (annotation-drawing.ts). */
const PIXEL_BLOCK = 12;

const { runtime, workdir, open } = useEditorSuite({ name: 'annotate' });
let sourcePng = '';

function inPattern(x: number, y: number): boolean {
  const inside = (box: typeof PATTERN_A) => x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height;
  return inside(PATTERN_A) || inside(PATTERN_B);
}

beforeAll(async () => {
  const raw = Buffer.alloc(SOURCE.width * SOURCE.height * 3, 255);
  for (let y = 0; y < SOURCE.height; y += 1) {
    for (let x = 0; x < SOURCE.width; x += 1) {
      if (inPattern(x, y) && x % 4 < 2 !== y % 6 < 3) raw.fill(0, (y * SOURCE.width + x) * 3, (y * SOURCE.width + x) * 3 + 3);
    }
  }
  sourcePng = join(workdir(), 'stripes.png');
  await writeFile(
    sourcePng,
    await sharp(raw, { raw: { ...SOURCE, channels: 3 } })
      .png()
      .toBuffer(),
  );
});

interface View {
  box: { x: number; y: number };
  scale: number;
  crop: { x: number; y: number };
}

async function openWithSource(viewport?: { width: number; height: number }) {
  const opened = await open(runtime().url, viewport);
  await opened.page.click('#tab-image');
  await (await opened.page.$('input#image-file'))!.uploadFile(sourcePng);
  await waitForStatus(opened.page, '#image-status', 'Opened stripes.png', '#source-error');
  await previewSettled(opened.page);
  await opened.page.waitForSelector('#annotate-overlay[data-view]');
  return opened;
}

/** A source pixel's position on the page. */
async function at(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  await previewSettled(page);
  const { view, left, top } = await page.$eval('#annotate-overlay', (overlay) => {
    const rect = overlay.getBoundingClientRect();
    return { view: JSON.parse((overlay as HTMLElement).dataset.view!) as View, left: rect.x, top: rect.y };
  });
  return { x: left + view.box.x + (x - view.crop.x) * view.scale, y: top + view.box.y + (y - view.crop.y) * view.scale };
}

/** Presses, moves in several steps (pausing past the history's merge window once) and lets go, in source pixels. */
async function drag(page: Page, from: [number, number], to: [number, number], options: { pause?: boolean } = {}): Promise<void> {
  const start = await at(page, ...from);
  const end = await at(page, ...to);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let step = 1; step <= 6; step += 1) {
    await page.mouse.move(start.x + ((end.x - start.x) * step) / 6, start.y + ((end.y - start.y) * step) / 6);
    if (options.pause && step === 3) await new Promise((resolve) => setTimeout(resolve, 1300));
  }
  await page.mouse.up();
}

async function clickAt(page: Page, x: number, y: number): Promise<void> {
  const point = await at(page, x, y);
  await page.mouse.click(point.x, point.y);
}

type Key = Parameters<Page['keyboard']['press']>[0];

async function press(page: Page, key: Key, modifiers: Key[] = []): Promise<void> {
  for (const modifier of modifiers) await page.keyboard.down(modifier);
  await page.keyboard.press(key);
  for (const modifier of modifiers.toReversed()) await page.keyboard.up(modifier);
}

/** The annotations the editor keeps for the open source. */
async function annotations(page: Page): Promise<Annotation[]> {
  return page.evaluate(() => {
    const all = JSON.parse(localStorage.getItem('easel.editor.edits') ?? '[]') as [string, { annotations: Annotation[] }][];
    return all[0]?.[1].annotations ?? [];
  });
}

const selected = (page: Page) => page.$eval('#annotate-overlay', (overlay) => (overlay as HTMLElement).dataset.selected ?? null);
const pressedTool = (page: Page) =>
  page.$$eval('#annotate-toolbar button[data-tool][aria-pressed="true"]', (buttons) => buttons.map((button) => (button as HTMLElement).dataset.tool));
const undoLabels = (page: Page) => page.$$eval('#annotate-undo, #annotate-redo', (buttons) => buttons.map((button) => button.getAttribute('aria-label')));

/** Luminance of every pixel in a box of the exported image. */
async function luminances(image: Buffer, box: { x: number; y: number; width: number; height: number }): Promise<{ values: number[]; rows: number[][] }> {
  const { data, info } = await sharp(image)
    .extract({ left: box.x, top: box.y, width: box.width, height: box.height })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const values: number[] = [];
  const rows: number[][] = [];
  for (let y = 0; y < info.height; y += 1) {
    const row: number[] = [];
    for (let x = 0; x < info.width; x += 1) {
      const i = (y * info.width + x) * info.channels;
      row.push(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    }
    rows.push(row);
    values.push(...row);
  }
  return { values, rows };
}

function spread(values: number[]): number {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
}

describe('annotating', SLOW, () => {
  it('draws each kind by dragging on the preview, selects what it drew, picks tools by key, and numbers step markers 1, 2, 3', async () => {
    // Prepare
    const { page } = await openWithSource();
    const kinds: [Key, string][] = [
      ['a', 'arrow'],
      ['l', 'line'],
      ['r', 'rect'],
      ['o', 'ellipse'],
      ['h', 'highlight'],
      ['b', 'blur'],
      ['p', 'pixelate'],
    ];
    const drawn: { kind: string; pressed: (string | undefined)[]; selected: boolean }[] = [];

    // Act: each shape tool by its key, one drag each
    for (const [index, [key]] of kinds.entries()) {
      await press(page, key);
      // One below the other, so each can be told apart
      const y = 150 + index * 24;
      await drag(page, [345, y], [560, y + 10]);
      const last = (await annotations(page)).at(-1)!;
      drawn.push({ kind: last.kind, pressed: await pressedTool(page), selected: (await selected(page)) === last.id });
    }
    // Act: text by its button, typed and finished with Enter
    await page.click('#annotate-toolbar button[data-tool="text"]');
    await clickAt(page, 60, 220);
    await page.waitForSelector('.annotate-text-input');
    await page.keyboard.type('Look here');
    await press(page, 'Enter');
    // Act: three step markers
    await press(page, 'n');
    for (const x of [60, 120, 180]) await clickAt(page, x, 330);
    const all = await annotations(page);

    // Assess
    expect(drawn).toEqual(kinds.map(([, kind]) => ({ kind, pressed: [kind], selected: true })));
    const shapes = all.filter((annotation): annotation is ShapeAnnotation => 'x1' in annotation);
    expect(shapes.map((shape) => [shape.kind, Math.round(shape.x1), Math.round(shape.x2)])).toEqual(kinds.map(([, kind]) => [kind, 345, 560]));
    expect(all.find((annotation) => annotation.kind === 'text')).toMatchObject({ text: 'Look here', color: '#ff3b30', size: 24, weight: 700 });
    expect(all.filter((annotation) => annotation.kind === 'step').map((step) => step.kind === 'step' && step.n)).toEqual([1, 2, 3]);
    expect(await page.$('.annotate-text-input')).toBeNull();
    expect(await undoLabels(page)).toEqual(['Undo (11/100)', 'Redo (0/100)']);
    expect(await violations(page)).toEqual([]);
    await saveScreenshot(page, 'annotate-kinds-desktop');
  });

  it('moves, resizes, recolours, nudges and deletes the selection, each one undo step, with the keys and the buttons', async () => {
    // Prepare: a rectangle, drawn with a pause mid-drag that must not split it
    const { page } = await openWithSource();
    await press(page, 'r');
    await drag(page, [100, 200], [300, 300], { pause: true });
    const id = (await annotations(page))[0]!.id;
    const afterDraw = await undoLabels(page);
    // Whole source pixels: the pointer's page position maps to fractions of one.
    const rect = async () => {
      const found = (await annotations(page)).find((annotation) => annotation.id === id) as ShapeAnnotation | undefined;
      return found && { ...found, x1: Math.round(found.x1), y1: Math.round(found.y1), x2: Math.round(found.x2), y2: Math.round(found.y2) };
    };

    // Act: move it by its stroke with the select tool, then resize it by its bottom-right handle
    await press(page, 'v');
    await press(page, 'Escape');
    const deselected = await selected(page);
    await drag(page, [100, 250], [150, 280]);
    const afterMove = await rect();
    await drag(page, [350, 330], [400, 360]);
    const afterResize = await rect();

    // Act: recolour from the palette, nudge 3 px right and 10 px down
    await page.click('.annotate-swatch[aria-label="Blue"]');
    await page.focus('#annotate-overlay');
    for (let i = 0; i < 3; i += 1) await press(page, 'ArrowRight');
    await press(page, 'ArrowDown', ['Shift']);
    const afterNudge = await rect();
    const steps = await undoLabels(page);

    // Act: undo the nudge by key, redo it by key and by Ctrl+Y, undo by the button
    await press(page, 'z', ['Control']);
    const undone = await rect();
    await press(page, 'z', ['Control', 'Shift']);
    const redone = await rect();
    await page.click('#annotate-undo');
    await press(page, 'y', ['Control']);
    const again = await rect();

    // Act: keys typed into a field are not shortcuts; Delete removes the selection
    await page.click('#tab-capture');
    await page.click('#capture-url');
    await page.keyboard.type('val');
    const toolWhileTyping = await pressedTool(page);
    await clickAt(page, 150 + 3, 290);
    const reselected = await selected(page);
    const announced = await text(page, '#annotate-status');
    await press(page, 'Delete');
    const afterDelete = await annotations(page);
    await page.click('#annotate-undo');
    const restored = await rect();

    // Assess
    expect(afterDraw).toEqual(['Undo (1/100)', 'Redo (0/100)']);
    expect(deselected).toBeNull();
    expect(afterMove).toMatchObject({ x1: 150, y1: 230, x2: 350, y2: 330 });
    expect(afterResize).toMatchObject({ x1: 150, y1: 230, x2: 400, y2: 360, color: '#ff3b30' });
    expect(afterNudge).toMatchObject({ x1: 153, y1: 240, x2: 403, y2: 370, color: '#007aff' });
    expect(steps).toEqual(['Undo (5/100)', 'Redo (0/100)']);
    expect(undone).toMatchObject({ x1: 150, y1: 230, color: '#007aff' });
    expect(redone).toMatchObject({ x1: 153, y1: 240 });
    expect(again).toMatchObject({ x1: 153, y1: 240 });
    expect(toolWhileTyping).toEqual(['select']);
    expect(await page.$eval('#capture-url', (input) => (input as HTMLInputElement).value)).toBe('val');
    expect(reselected).toBe(id);
    expect(announced).toBe('Rectangle selected: arrow keys move it, Delete removes it.');
    expect(afterDelete).toEqual([]);
    expect(restored).toMatchObject({ x1: 153, y1: 240, x2: 403, y2: 370 });
    expect(await violations(page)).toEqual([]);
  });

  it('edits a text on double-click, duplicates it with Ctrl+D, and lists the shortcuts on the page', async () => {
    // Prepare
    const { page } = await openWithSource();
    await press(page, 't');
    await clickAt(page, 100, 250);
    await page.keyboard.type('Frist');
    await press(page, 'Enter');
    await press(page, 'v');

    // Act: double-click the text, replace it, finish with Enter
    const point = await at(page, 120, 250);
    await page.mouse.click(point.x, point.y, { count: 2 });
    await page.waitForSelector('.annotate-text-input');
    await page.keyboard.down('Control');
    await page.keyboard.press('a');
    await page.keyboard.up('Control');
    await page.keyboard.type('First');
    await press(page, 'Enter');
    await press(page, 'd', ['Control']);
    const duplicated = await annotations(page);
    await press(page, '?');
    const list = await page.$eval('#annotate-shortcuts', (details) => ({
      open: (details as HTMLDetailsElement).open,
      summary: details.querySelector('summary')!.textContent,
      rows: [...details.querySelectorAll('dl > div')].map((row) => `${row.querySelector('dt')!.textContent} ${row.querySelector('dd')!.textContent}`),
    }));

    // Assess
    const [first, copy] = duplicated as TextAnnotation[];
    expect(duplicated.map((annotation) => annotation.kind === 'text' && annotation.text)).toEqual(['First', 'First']);
    expect([copy!.x - first!.x, copy!.y - first!.y]).toEqual([12, 12]);
    expect(await selected(page)).toBe(copy!.id);
    expect(await undoLabels(page)).toEqual(['Undo (3/100)', 'Redo (0/100)']);
    // The list is the command table's rows with keys, then the page's notes on gestures.
    expect({ open: list.open, summary: list.summary }).toEqual({ open: true, summary: 'Keyboard shortcuts' });
    expect(list.rows).toEqual(
      expect.arrayContaining([
        'D Pen',
        'Shift+Ctrl/⌘+Z, Ctrl+Y Redo',
        'C Crop',
        'Shift+R Redact sensitive data',
        'Ctrl/⌘+S Export and download',
        '0 Zoom to fit',
        '? Show or hide this list',
        'Double-click Edit a text',
      ]),
    );
    expect(list.rows).toHaveLength(35);
    expect(await violations(page)).toEqual([]);
  });

  it('exports the annotations where they were drawn at 2× and 3×, and redactions leave nothing of what was under them', async () => {
    // Prepare: an arrow and a box on white, a blur over one striped patch and a pixelation over the other
    const { page, downloads } = await openWithSource();
    await press(page, 'r');
    await drag(page, [320, 220], [560, 360]);
    await press(page, 'a');
    await drag(page, [60, 360], [250, 230]);
    await press(page, 'b');
    await drag(page, [PATTERN_A.x, PATTERN_A.y], [PATTERN_A.x + PATTERN_A.width, PATTERN_A.y + PATTERN_A.height]);
    await press(page, 'p');
    await drag(page, [PATTERN_B.x, PATTERN_B.y], [PATTERN_B.x + PATTERN_B.width, PATTERN_B.y + PATTERN_B.height]);
    await press(page, 'Escape');
    const [box, arrow, blur, pixelate] = (await annotations(page)) as ShapeAnnotation[];

    // Act: export at 2× with the button, at 3× with Ctrl+S
    await page.click('input[name="scale"][value="2"]');
    const twice = await exportDownload(page, downloads, () => page.click('#export-button'));
    await page.click('input[name="scale"][value="3"]');
    await page.focus('#annotate-overlay');
    const thrice = await exportDownload(page, downloads, () => press(page, 's', ['Control']));

    // Assess, at each scale
    for (const [scale, png] of [
      [2, twice],
      [3, thrice],
    ] as const) {
      const px = (value: number) => Math.round((PADDING + value) * scale);
      // The box's top edge and the arrow's middle, in red where they were drawn
      expectColour(await pixelOf(png, px((box!.x1 + box!.x2) / 2), px(box!.y1)), RED, 40);
      expectColour(await pixelOf(png, px((arrow!.x1 + arrow!.x2) / 2), px((arrow!.y1 + arrow!.y2) / 2)), RED, 40);
      // Blur: inside the box (its rim blends with the white around), no black or white stripe is left
      const inner = (shape: ShapeAnnotation, inset: number) => ({
        x: px(shape.x1 + inset),
        y: px(shape.y1 + inset),
        width: px(shape.x2 - inset) - px(shape.x1 + inset),
        height: px(shape.y2 - inset) - px(shape.y1 + inset),
      });
      const blurred = await luminances(png, inner(blur!, 16));
      const original = await luminances(
        await sharp(sourcePng)
          .extract({ left: PATTERN_A.x + 16, top: PATTERN_A.y + 16, width: PATTERN_A.width - 32, height: PATTERN_A.height - 32 })
          .png()
          .toBuffer(),
        { x: 0, y: 0, width: PATTERN_A.width - 32, height: PATTERN_A.height - 32 },
      );
      expect(spread(original.values)).toBeGreaterThan(100);
      expect(spread(blurred.values)).toBeLessThan(10);
      expect(blurred.values.filter((value) => value < 60 || value > 200)).toEqual([]);
      // Pixelate: blocks of 12 source pixels in device pixels from the box's first whole pixel, each one colour
      const block = PIXEL_BLOCK * scale;
      const origin = { x: Math.floor((PADDING + pixelate!.x1) * scale), y: Math.floor((PADDING + pixelate!.y1) * scale) };
      const cells = await luminances(png, { x: origin.x, y: origin.y, width: block * 8, height: block * 4 });
      let widest = 0;
      for (let by = 0; by < 4; by += 1) {
        for (let bx = 0; bx < 8; bx += 1) {
          const values = cells.rows.slice(by * block, (by + 1) * block).flatMap((row) => row.slice(bx * block, (bx + 1) * block));
          widest = Math.max(widest, Math.max(...values) - Math.min(...values));
        }
      }
      expect(widest).toBeLessThanOrEqual(2);
      expect(cells.values.filter((value) => value < 60 || value > 200)).toEqual([]);
    }
    expect(await sharp(thrice).metadata()).toMatchObject({ width: (SOURCE.width + 2 * PADDING) * 3, height: (SOURCE.height + 2 * PADDING) * 3 });
    expect(await violations(page)).toEqual([]);
  });

  it('selects annotations with [ and ] and edits a selected text with Enter, without a mouse', async () => {
    // Prepare: a box, then a text, drawn; nothing selected
    const { page } = await openWithSource();
    await press(page, 'r');
    await drag(page, [40, 40], [140, 120]);
    await press(page, 't');
    await clickAt(page, 200, 250);
    await page.keyboard.type('Note');
    await press(page, 'Enter');
    await press(page, 'Escape');
    const [box, note] = await annotations(page);

    // Act: step through both ways, round the ends
    const seen: (string | null)[] = [];
    for (const key of [']', ']', ']', '[']) {
      await press(page, key as Key);
      seen.push(await selected(page));
    }
    await press(page, 'Enter');
    await page.waitForSelector('.annotate-text-input');
    await page.keyboard.down('Control');
    await page.keyboard.press('a');
    await page.keyboard.up('Control');
    await page.keyboard.type('Done');
    await press(page, 'Enter');

    // Assess
    expect(seen).toEqual([box!.id, note!.id, box!.id, note!.id]);
    expect((await annotations(page)).map((annotation) => annotation.kind === 'text' && annotation.text)).toEqual([false, 'Done']);
    expect(await violations(page)).toEqual([]);
  });

  it('copies the composition with Ctrl+C, and keeps the annotations when the same image is opened after a reload', async () => {
    // Prepare
    const { page } = await openWithSource();
    await press(page, 'a');
    await drag(page, [100, 300], [400, 300]);
    await press(page, 'Escape');
    const before = await annotations(page);

    // Act: copy by key; reload and open the same file again
    await press(page, 'c', ['Control']);
    const copied = await waitForStatus(page, '#export-status', 'Copied', '#export-error');
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    await page.click('#tab-image');
    await (await page.$('input#image-file'))!.uploadFile(sourcePng);
    await waitForStatus(page, '#image-status', 'Opened stripes.png', '#source-error');
    await page.waitForSelector('#annotate-overlay[data-view]');
    const point = await at(page, 250, 300);
    const canvas = await page.$eval('#preview', (preview) => ({ x: preview.getBoundingClientRect().x, y: preview.getBoundingClientRect().y }));
    const ratio = await page.evaluate(() => window.devicePixelRatio);
    const pixel = await previewPixel(page, Math.round((point.x - canvas.x) * ratio), Math.round((point.y - canvas.y) * ratio));

    // Assess
    expect(copied).toMatch(/^Copied a \d+ × \d+ px PNG/);
    expect(await annotations(page)).toEqual(before);
    expectColour(pixel, RED, 40);
    expect(await text(page, '#annotate-undo .annotate-count')).toBe('0/100');
    expect(await violations(page)).toEqual([]);
  });

  it('fits its toolbar on a 375 px screen with targets of 24 px or more', async () => {
    // Prepare + Act
    const { page } = await openWithSource({ width: 375, height: 812 });
    const boxes = await page.$$eval('#annotate-toolbar button, #annotate-toolbar input, #annotate-toolbar select, #annotate-shortcuts summary', (elements) =>
      elements.map((element) => {
        const rect = element.getBoundingClientRect();
        return { name: element.getAttribute('aria-label') ?? element.textContent, left: rect.left, right: rect.right, width: rect.width, height: rect.height };
      }),
    );

    // Assess
    expect(boxes.filter((box) => box.left < 0 || box.right > 375)).toEqual([]);
    expect(boxes.filter((box) => box.width < 24 || box.height < 24)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    await saveScreenshot(page, 'annotate-375');
  });
});
