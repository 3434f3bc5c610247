/**
 * The crop tool in the real browser: an image of four coloured quadrants is cropped with the mouse,
 * the keyboard and the ratio presets, and the exported file is read back for its size and colours.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser.ts';
import {
  countColour,
  expectColour,
  exportDownload,
  previewPixel,
  previewSettled,
  readout,
  SLOW,
  text,
  violations,
  waitForStatus,
} from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';
import { AVATAR_RGB, PHOTO_RGB, startTweetStandIns, TWEET_ID } from './support/tweet-stand-ins.ts';

/** The source: 400 × 300, a colour to each quarter, far from the default gradient's blues. */
const SOURCE = { width: 400, height: 300 };
const RED = [220, 30, 30] as const;
const GREEN = [30, 180, 60] as const;
const BLUE = [40, 60, 230] as const;
const YELLOW = [240, 200, 20] as const;
const QUADRANTS = { topLeft: RED, topRight: GREEN, bottomLeft: BLUE, bottomRight: YELLOW };
/** Compose defaults the sizes are computed from (editor/src/model/settings.ts). */
const PADDING = 64;
/** The Auto scale: a file's own pixels, and a tweet card's 2×. */
const SCALE = 1;
const CARD_SCALE = 2;
const exported = (width: number, height: number, scale = SCALE) => ({ width: (width + 2 * PADDING) * scale, height: (height + 2 * PADDING) * scale });
/** A sure count of a colour's pixels: a quarter of the source is 150 × 200 at 1×. */
const PLENTY = 10_000;
/** The tweet card's width (tweet-card.ts). */
const CARD_WIDTH = 550;

const { runtime, workdir, open } = useEditorSuite({
  name: 'crop',
  before: async () => {
    const tweets = await startTweetStandIns();
    Object.assign(process.env, tweets.env);
    return tweets.close;
  },
});
let quadrants = '';

beforeAll(async () => {
  const raw = Buffer.alloc(SOURCE.width * SOURCE.height * 3);
  for (let y = 0; y < SOURCE.height; y += 1) {
    for (let x = 0; x < SOURCE.width; x += 1) {
      const top = y < SOURCE.height / 2;
      const left = x < SOURCE.width / 2;
      raw.set(top ? (left ? QUADRANTS.topLeft : QUADRANTS.topRight) : left ? QUADRANTS.bottomLeft : QUADRANTS.bottomRight, (y * SOURCE.width + x) * 3);
    }
  }
  quadrants = join(workdir(), 'quadrants.png');
  await writeFile(
    quadrants,
    await sharp(raw, { raw: { ...SOURCE, channels: 3 } })
      .png()
      .toBuffer(),
  );
});

async function openQuadrants(viewport?: { width: number; height: number }) {
  const opened = await open(runtime().url, viewport);
  await opened.page.click('#tab-image');
  await (await opened.page.$('input#image-file'))!.uploadFile(quadrants);
  await waitForStatus(opened.page, '#image-status', 'Opened quadrants.png', '#source-error');
  return opened;
}

/** Opens the crop tool with its button and waits for the crop box over the whole source. */
async function startCrop(page: Page): Promise<void> {
  await page.click('#crop-button');
  await page.waitForSelector('#crop-box', { visible: true });
}

async function cropFields(page: Page) {
  return page.$$eval('#crop-x, #crop-y, #crop-width, #crop-height', (inputs) => inputs.map((input) => Number((input as HTMLInputElement).value)));
}

/** Replaces a crop field's value from the keyboard; Tab leaves the field, which takes the value. */
async function typeField(page: Page, id: string, value: number): Promise<void> {
  await page.click(`#${id}`, { count: 3 });
  await page.keyboard.type(String(value));
  await page.keyboard.press('Tab');
}

async function colourCounts(png: Buffer) {
  return {
    red: await countColour(png, RED),
    green: await countColour(png, GREEN),
    blue: await countColour(png, BLUE),
    yellow: await countColour(png, YELLOW),
  };
}

/** Pixels of the preview canvas near `colour`, once it shows the latest change. */
async function previewCount(page: Page, colour: readonly number[]): Promise<number> {
  await previewSettled(page);
  return page.$eval(
    '#preview',
    (canvas, [r, g, b]) => {
      const { data } = (canvas as HTMLCanvasElement)
        .getContext('2d')!
        .getImageData(0, 0, (canvas as HTMLCanvasElement).width, (canvas as HTMLCanvasElement).height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4)
        if (Math.abs(data[i]! - r!) <= 24 && Math.abs(data[i + 1]! - g!) <= 24 && Math.abs(data[i + 2]! - b!) <= 24) count += 1;
      return count;
    },
    colour,
  );
}

/** An element's box on the page. */
async function boxOf(page: Page, selector: string) {
  return page.$eval(selector, (element) => {
    const rect = element.getBoundingClientRect();
    return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
  });
}

/** The preview's pixel under a point of the page. */
async function pixelOnPage(page: Page, x: number, y: number): Promise<number[]> {
  await previewSettled(page);
  const canvas = await page.$eval('#preview', (element) => {
    const rect = element.getBoundingClientRect();
    return { x: rect.x, y: rect.y, ratio: (element as HTMLCanvasElement).width / rect.width };
  });
  return previewPixel(page, Math.round((x - canvas.x) * canvas.ratio), Math.round((y - canvas.y) * canvas.ratio));
}

describe('the crop tool', SLOW, () => {
  it('crops to the left half by dragging a handle with the mouse, and exports only the kept quadrants at the crop size', async () => {
    // Prepare
    const { page, downloads } = await openQuadrants();
    await startCrop(page);
    const whole = await boxOf(page, '#crop-box');
    const handle = await boxOf(page, '.crop-handle[data-handle="e"]');

    // Act: the right edge's handle to the middle of the source; whole page pixels, within half a source pixel
    const start = { x: Math.round(handle.x + handle.width / 2), y: Math.round(handle.y + handle.height / 2) };
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x - 40, start.y, { steps: 4 });
    const gridShown = await page.$eval('.crop-grid', (grid) => getComputedStyle(grid).display);
    await page.mouse.move(Math.round(start.x - whole.width / 2), start.y, { steps: 4 });
    await page.mouse.up();
    const fields = await cropFields(page);
    const label = await text(page, '.crop-size');
    const gridAfter = await page.$eval('.crop-grid', (grid) => getComputedStyle(grid).display);
    await page.click('#crop-apply');
    const png = await exportDownload(page, downloads);

    // Assess: the tool showed thirds only while dragging, and the size
    expect(gridShown).toBe('block');
    expect(gridAfter).toBe('none');
    expect(fields).toEqual([0, 0, 200, 300]);
    expect(label).toBe('200 × 300');
    // Assess: out of crop mode, the readout and the file are the crop's size, with only red and blue in it
    expect(await page.$eval('#crop-bar', (bar) => (bar as HTMLElement).hidden)).toBe(true);
    expect(await page.$eval('#crop-button', (button) => button.getAttribute('aria-pressed'))).toBe('false');
    expect(await readout(page)).toEqual(exported(200, 300));
    const metadata = await sharp(png).metadata();
    expect({ width: metadata.width, height: metadata.height }).toEqual(exported(200, 300));
    const counts = await colourCounts(png);
    expect(counts.red).toBeGreaterThan(PLENTY);
    expect(counts.blue).toBeGreaterThan(PLENTY);
    expect({ green: counts.green, yellow: counts.yellow }).toEqual({ green: 0, yellow: 0 });
    expect(await violations(page)).toEqual([]);
  });

  it('crops to one quadrant by typing X, Y, W and H in that order, applies with Enter, and exports it alone', async () => {
    // Prepare
    const { page, downloads } = await openQuadrants();
    await startCrop(page);

    // Act: the position first, while the crop is still the whole source
    await typeField(page, 'crop-x', 200);
    await typeField(page, 'crop-y', 150);
    await typeField(page, 'crop-width', 200);
    await page.click('#crop-height', { count: 3 });
    await page.keyboard.type('150');
    const typed = await cropFields(page);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#crop-bar', { hidden: true });
    const png = await exportDownload(page, downloads);

    // Assess
    expect(typed).toEqual([200, 150, 200, 150]);
    expect(await readout(page)).toEqual(exported(200, 150));
    const metadata = await sharp(png).metadata();
    expect({ width: metadata.width, height: metadata.height }).toEqual(exported(200, 150));
    const counts = await colourCounts(png);
    expect(counts.yellow).toBeGreaterThan(PLENTY);
    expect({ red: counts.red, green: counts.green, blue: counts.blue }).toEqual({ red: 0, green: 0, blue: 0 });
    expect(await violations(page)).toEqual([]);
  });

  it('keeps the crop box on the same source pixels when zoomed in while cropping, and applies that crop', async () => {
    // Prepare: a draft over the yellow quadrant, at the fitted zoom
    const { page, downloads } = await openQuadrants();
    await startCrop(page);
    await typeField(page, 'crop-x', 200);
    await typeField(page, 'crop-y', 150);
    await typeField(page, 'crop-width', 200);
    await typeField(page, 'crop-height', 150);
    await previewSettled(page);
    const fitted = await boxOf(page, '#crop-box');

    // Act: zoom in with the toolbar's button while the crop tool is open
    const fittedLevel = await page.$eval('#zoom-level', (level) => level.textContent);
    await page.click('#zoom-in');
    await page.waitForFunction((before) => document.getElementById('zoom-level')?.textContent !== before, {}, fittedLevel);
    await previewSettled(page);
    const zoomed = await boxOf(page, '#crop-box');
    const inside = await pixelOnPage(page, zoomed.x + zoomed.width / 2, zoomed.y + zoomed.height / 2);
    const left = await pixelOnPage(page, zoomed.x - 4, zoomed.y + zoomed.height / 2);
    const above = await pixelOnPage(page, zoomed.x + zoomed.width / 2, zoomed.y - 4);
    const fields = await cropFields(page);
    await page.click('#crop-apply');
    await page.waitForSelector('#crop-bar', { hidden: true });
    const png = await exportDownload(page, downloads);

    // Assess: the box grew with the zoom and still frames the yellow quadrant, between blue and green
    expect(zoomed.width / fitted.width).toBeCloseTo(1.25, 1);
    expect(zoomed.height / fitted.height).toBeCloseTo(1.25, 1);
    expectColour(inside, YELLOW);
    expectColour(left, BLUE);
    expectColour(above, GREEN);
    expect(fields).toEqual([200, 150, 200, 150]);
    const metadata = await sharp(png).metadata();
    expect({ width: metadata.width, height: metadata.height }).toEqual(exported(200, 150));
    const counts = await colourCounts(png);
    expect(counts.yellow).toBeGreaterThan(PLENTY);
    expect({ red: counts.red, green: counts.green, blue: counts.blue }).toEqual({ red: 0, green: 0, blue: 0 });
  });

  it.each([
    ['16:9', '16x9', 400, 225],
    ['1:1', '1x1', 300, 300],
    ['9:16', '9x16', 162, 288],
  ])('crops to exactly %s, as large as fits the source', async (_name, id, width, height) => {
    // Prepare
    const { page } = await openQuadrants();
    await startCrop(page);

    // Act
    await page.click(`.crop-ratios input[value="${id}"]`);
    const fields = await cropFields(page);
    await page.click('#crop-apply');

    // Assess: centred on the source, in whole pixels of the exact ratio
    expect(fields).toEqual([Math.round((SOURCE.width - width) / 2), Math.round((SOURCE.height - height) / 2), width, height]);
    const [a, b] = id.split('x').map(Number) as [number, number];
    expect(width * b).toBe(height * a);
    expect(await readout(page)).toEqual(exported(width, height));
  });

  it('keeps the ratio while a corner is dragged', async () => {
    // Prepare
    const { page } = await openQuadrants();
    await startCrop(page);
    await page.click('.crop-ratios input[value="16x9"]');
    const handle = await boxOf(page, '.crop-handle[data-handle="se"]');

    // Act
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x - 120, handle.y - 20, { steps: 5 });
    await page.mouse.up();
    const [x, y, width, height] = await cropFields(page);

    // Assess: the top-left corner held, the size smaller and still 16:9
    expect([x, y]).toEqual([0, 38]);
    expect(width).toBeLessThan(400);
    expect(width! * 9).toBe(height! * 16);
  });

  it('draws a new crop by dragging across the dimmed area, and ignores a click there', async () => {
    // Prepare: a crop in the top-left corner leaves the rest dimmed
    const { page } = await openQuadrants();
    await startCrop(page);
    await typeField(page, 'crop-width', 100);
    const source = await boxOf(page, '#crop-overlay');
    const at = (x: number, y: number) => [source.x + (x / SOURCE.width) * source.width, source.y + (y / SOURCE.height) * source.height] as const;

    // Act: from the source's (360, 270) up and left to (240, 150), then a click in the dimmed top-right
    await page.mouse.move(...at(360, 270));
    await page.mouse.down();
    await page.mouse.move(...at(240, 150), { steps: 5 });
    await page.mouse.up();
    const drawn = await cropFields(page);
    await page.mouse.click(...at(390, 10));

    // Assess
    expect(drawn).toEqual([240, 150, 120, 120]);
    expect(await cropFields(page)).toEqual(drawn);
  });

  it('works from the keyboard alone: C opens it, a ratio and the arrow keys set the crop, Enter applies, Escape cancels', async () => {
    // Prepare
    const { page } = await openQuadrants();
    await page.$eval('#image-file', (input) => (input as HTMLInputElement).blur());

    // Act: C, Tab to the ratios, the next one (16:9), back to the crop box, up by 1 and by 10
    await page.keyboard.press('c');
    await page.waitForSelector('#crop-box', { visible: true });
    const focused = await page.evaluate(() => document.activeElement?.id);
    const pressed = await page.$eval('#crop-button', (button) => button.getAttribute('aria-pressed'));
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.down('Shift');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.up('Shift');
    await page.keyboard.press('ArrowUp');
    const moved = await cropFields(page);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#crop-bar', { hidden: true });
    const applied = await readout(page);

    // Act: open again, move down, and cancel
    await page.keyboard.press('c');
    await page.waitForSelector('#crop-box', { visible: true });
    const reopened = await cropFields(page);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#crop-bar', { hidden: true });
    await page.keyboard.press('c');
    await page.waitForSelector('#crop-box', { visible: true });
    const afterCancel = await cropFields(page);

    // Assess
    expect(focused).toBe('crop-box');
    expect(pressed).toBe('true');
    expect(moved).toEqual([0, 38 - 10 - 1, 400, 225]);
    expect(applied).toEqual(exported(400, 225));
    expect(reopened).toEqual([0, 27, 400, 225]);
    expect(afterCancel).toEqual([0, 27, 400, 225]);
    expect(await readout(page)).toEqual(exported(400, 225));
    expect(await violations(page)).toEqual([]);
  });

  it('undoes the crop with Ctrl+Z and redoes it with Shift+Ctrl+Z, and Reset removes it', async () => {
    // Prepare: the top half
    const { page } = await openQuadrants();
    await startCrop(page);
    await typeField(page, 'crop-height', 150);
    await page.click('#crop-apply');
    await page.waitForSelector('#crop-bar', { hidden: true });
    const cropped = { size: await readout(page), blue: await previewCount(page, BLUE) };

    // Act: undo, then redo, with the usual shortcuts
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyZ');
    await page.keyboard.up('Control');
    const undone = { size: await readout(page), blue: await previewCount(page, BLUE) };
    await page.keyboard.down('Control');
    await page.keyboard.down('Shift');
    await page.keyboard.press('KeyZ');
    await page.keyboard.up('Shift');
    await page.keyboard.up('Control');
    const redone = { size: await readout(page), blue: await previewCount(page, BLUE) };

    // Act: Reset in the crop tool, then leave it
    await startCrop(page);
    await page.click('#crop-reset');
    const resetFields = await cropFields(page);
    await page.keyboard.press('Escape');
    await page.waitForSelector('#crop-bar', { hidden: true });

    // Assess: the bottom half's blue shows in the preview only without the crop
    expect(cropped).toEqual({ size: exported(400, 150), blue: 0 });
    expect(undone.size).toEqual(exported(400, 300));
    expect(undone.blue).toBeGreaterThan(1_000);
    expect(redone).toEqual(cropped);
    expect(resetFields).toEqual([0, 0, 400, 300]);
    expect(await readout(page)).toEqual(exported(400, 300));
    expect(await previewCount(page, BLUE)).toBeGreaterThan(1_000);
    expect(await violations(page)).toEqual([]);
  });

  it('leaves crop mode without applying the draft when another source is opened', async () => {
    // Prepare
    const { page } = await openQuadrants();
    await startCrop(page);
    await typeField(page, 'crop-width', 100);

    // Act
    const other = join(workdir(), 'other.png');
    await writeFile(other, await readFile(quadrants));
    await (await page.$('input#image-file'))!.uploadFile(other);
    await waitForStatus(page, '#image-status', 'Opened other.png', '#source-error');

    // Assess: the draft was not applied; the tool is closed
    await page.waitForSelector('#crop-bar', { hidden: true });
    expect(await page.$eval('#crop-overlay', (overlay) => (overlay as HTMLElement).hidden)).toBe(true);
    expect(await page.$eval('#crop-button', (button) => button.getAttribute('aria-pressed'))).toBe('false');
    expect(await readout(page)).toEqual(exported(400, 300));
  });

  it('crops a tweet card to its header, keeping the avatar and leaving out the photo', async () => {
    // Prepare
    const { page, downloads } = await open(runtime().url);
    await page.click('#tab-tweet');
    await page.type('#tweet-ref', TWEET_ID);
    await page.click('#tweet-submit');
    await waitForStatus(page, '#tweet-status', 'Loaded the tweet', '#source-error');
    await startCrop(page);

    // Act
    await typeField(page, 'crop-height', 100);
    await page.click('#crop-apply');
    const png = await exportDownload(page, downloads);

    // Assess
    const metadata = await sharp(png).metadata();
    expect({ width: metadata.width, height: metadata.height }).toEqual(exported(CARD_WIDTH, 100, CARD_SCALE));
    expect(await countColour(png, AVATAR_RGB)).toBeGreaterThan(30 * 30);
    expect(await countColour(png, PHOTO_RGB)).toBe(0);
    expect(await violations(page)).toEqual([]);
  });

  it.each([
    ['desktop', { width: 1440, height: 900 }],
    ['375', { width: 375, height: 800 }],
  ])('fits its bar and 24 px targets on a %s screen', async (name, viewport) => {
    // Prepare
    const { page } = await openQuadrants(viewport);

    // Act
    await startCrop(page);
    const boxes = await page.$$eval('#crop-bar button, #crop-bar input, .crop-ratios label, .crop-handle, #crop-button', (elements) =>
      elements.map((element) => {
        const rect = element.getBoundingClientRect();
        return {
          name: element.id || element.textContent || element.getAttribute('data-handle') || element.tagName,
          right: rect.right,
          bottom: rect.bottom,
          width: rect.width,
          height: rect.height,
        };
      }),
    );
    await saveScreenshot(page, `crop-${name}`);

    // Assess: nothing past the right edge or below the first screen; every target at least 24 px
    expect(boxes.filter((box) => box.right > viewport.width || box.bottom > viewport.height)).toEqual([]);
    expect(boxes.filter((box) => box.width < 24 || box.height < 24)).toEqual([]);
    expect(await violations(page)).toEqual([]);
  });
});
