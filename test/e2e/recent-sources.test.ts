/**
 * The work survives a reload, in the real browser: the picture, its annotations and the undo steps
 * come back from IndexedDB, a tweet card's images through the proxy again; the Recent list reopens
 * and forgets sources; a browser that refuses to store anything still edits.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectColour, previewPixel, previewSettled, SLOW, text, violations, waitForStatus } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';
import { AVATAR_RGB, startTweetStandIns, TWEET_ID } from './support/tweet-stand-ins.ts';

/** Two sources of one colour each, far from the default gradient and the annotation red. */
const SOURCE = { width: 400, height: 300 };
const GREEN = [30, 180, 60] as const;
const BLUE = [40, 60, 230] as const;
/** The card's backgrounds (tweet-card-paint.ts). */
const WHITE = [255, 255, 255] as const;
const BLACK = [0, 0, 0] as const;
/** The default annotation colour (index.html's first swatch). */
const RED = [255, 59, 48] as const;

const { runtime, workdir, open } = useEditorSuite({
  name: 'recent',
  before: async () => {
    const tweets = await startTweetStandIns();
    Object.assign(process.env, tweets.env);
    return tweets.close;
  },
});
const files = { green: '', blue: '' };

beforeAll(async () => {
  for (const [name, colour] of [
    ['green', GREEN],
    ['blue', BLUE],
  ] as const) {
    files[name] = join(workdir(), `${name}.png`);
    const [r, g, b] = colour;
    await writeFile(
      files[name],
      await sharp({ create: { ...SOURCE, channels: 3, background: { r, g, b } } })
        .png()
        .toBuffer(),
    );
  }
});

async function openImage(page: Page, file: string, name: string): Promise<void> {
  await page.click('#tab-image');
  await (await page.$('input#image-file'))!.uploadFile(file);
  await waitForStatus(page, '#image-status', `Opened ${name}`, '#source-error');
  await previewSettled(page);
}

/** A source pixel's place on the preview canvas, in device pixels. */
async function devicePoint(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  await page.waitForSelector('#annotate-overlay[data-view]');
  return page.$eval(
    '#annotate-overlay',
    (overlay, sx, sy) => {
      const view = JSON.parse((overlay as HTMLElement).dataset.view!) as { box: { x: number; y: number }; scale: number; crop: { x: number; y: number } };
      return {
        x: Math.round((view.box.x + (sx - view.crop.x) * view.scale) * devicePixelRatio),
        y: Math.round((view.box.y + (sy - view.crop.y) * view.scale) * devicePixelRatio),
      };
    },
    x,
    y,
  );
}

async function sourcePixel(page: Page, x: number, y: number): Promise<number[]> {
  await previewSettled(page);
  const point = await devicePoint(page, x, y);
  return previewPixel(page, point.x, point.y);
}

/** Draws a rectangle with the toolbar's tool, from and to source pixels. */
async function drawBox(page: Page, from: [number, number], to: [number, number]): Promise<void> {
  await page.click('#annotate-toolbar [data-tool="rect"]');
  const overlay = await page.$eval('#annotate-overlay', (element) => ({ x: element.getBoundingClientRect().x, y: element.getBoundingClientRect().y }));
  const ratio = await page.evaluate(() => devicePixelRatio);
  const [start, end] = [await devicePoint(page, ...from), await devicePoint(page, ...to)];
  await page.mouse.move(overlay.x + start.x / ratio, overlay.y + start.y / ratio);
  await page.mouse.down();
  for (let step = 1; step <= 5; step += 1)
    await page.mouse.move(overlay.x + (start.x + ((end.x - start.x) * step) / 5) / ratio, overlay.y + (start.y + ((end.y - start.y) * step) / 5) / ratio);
  await page.mouse.up();
  await page.keyboard.press('Escape');
}

/** Resolves once the editor's latest state is in IndexedDB. */
async function kept(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getElementById('recent')!.dataset.savedRevision === document.getElementById('preview')!.dataset.revision, SLOW);
}

async function reload(page: Page): Promise<void> {
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  await page.waitForSelector('#recent[data-loaded="true"]', SLOW);
}

const recentNames = (page: Page) => page.$$eval('#recent-list .recent-name', (names) => names.map((name) => name.textContent));

describe('the work across a reload', SLOW, () => {
  it('brings back the picture, its annotation and the undo step, and undo works after the reload', async () => {
    // Prepare: a green image with a red box drawn on it
    const { page, consoleErrors } = await open(runtime().url);
    await openImage(page, files.green, 'green.png');
    await drawBox(page, [100, 80], [300, 220]);
    await kept(page);
    const undoBefore = await text(page, '#annotate-undo .annotate-count');

    // Act
    await reload(page);
    const stroke = await sourcePixel(page, 100, 150);
    const inside = await sourcePixel(page, 200, 150);
    const undoAfter = await text(page, '#annotate-undo .annotate-count');
    await page.click('#annotate-undo');
    const undone = await sourcePixel(page, 100, 150);

    // Assess: the picture and the box are back, and the box's undo step takes it away
    expect(undoBefore).toBe('1/100');
    expectColour(stroke, RED, 40);
    expectColour(inside, GREEN);
    expect(undoAfter).toBe('1/100');
    expectColour(undone, GREEN);
    expect(await text(page, '#recent-status')).toBe('Reopened image green.png.');
    expect(await violations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('lists recent sources newest first, reopens one with its own edits, and forgets one removed', async () => {
    // Prepare: green with a box, then blue
    const { page } = await open(runtime().url);
    await openImage(page, files.green, 'green.png');
    await drawBox(page, [100, 80], [300, 220]);
    await kept(page);
    await openImage(page, files.blue, 'blue.png');
    await kept(page);
    await page.click('#recent summary');
    await page.waitForFunction(() => document.querySelectorAll('#recent-list .recent-item').length === 2);
    const listed = await recentNames(page);

    // Act: reopen green from the list
    await page.click('#recent-list .recent-item:nth-child(2) .recent-open');
    await page.waitForFunction(() => document.getElementById('recent-status')!.textContent === 'Reopened image green.png.');
    const reopened = { stroke: await sourcePixel(page, 100, 150), inside: await sourcePixel(page, 200, 150) };
    // Act: remove blue, then reload
    await page.waitForFunction(() => document.querySelector('#recent-list .recent-item:first-child .recent-name')?.textContent === 'image green.png');
    await page.click('#recent-list .recent-item:nth-child(2) .recent-remove');
    await page.waitForFunction(() => document.querySelectorAll('#recent-list .recent-item').length === 1);
    await reload(page);

    // Assess
    expect(listed).toEqual(['image blue.png', 'image green.png']);
    expectColour(reopened.stroke, RED, 40);
    expectColour(reopened.inside, GREEN);
    expect(await recentNames(page)).toEqual(['image green.png']);
    expectColour(await sourcePixel(page, 200, 150), GREEN);
  });

  it('brings back a tweet card with its images through the proxy, and redraws it in the other theme', async () => {
    // Prepare
    const { page } = await open(runtime().url);
    await page.click('#tab-tweet');
    await page.type('#tweet-ref', TWEET_ID);
    await page.click('#tweet-submit');
    await waitForStatus(page, '#tweet-status', 'Loaded the tweet', '#source-error');
    await kept(page);

    // Act: reload, then switch the reopened card to the dark theme
    await reload(page);
    const light = { background: await sourcePixel(page, 10, 10), avatar: await sourcePixel(page, 48, 48) };
    await page.click('#tab-tweet');
    await page.click('input[name="card-theme"][value="dark"]');
    await page.waitForFunction(() => document.getElementById('preview')!.getAttribute('aria-label')!.includes('dark card'), SLOW);
    const dark = { background: await sourcePixel(page, 10, 10), avatar: await sourcePixel(page, 48, 48) };

    // Assess: the card and its avatar, fetched again, in both themes
    expect(await text(page, '#recent-status')).toMatch(/^Reopened Tweet by @\w+.*, light card\.$/);
    expectColour(light.background, WHITE);
    expectColour(light.avatar, AVATAR_RGB, 30);
    expectColour(dark.background, BLACK);
    expectColour(dark.avatar, AVATAR_RGB, 30);
  });

  it('keeps a tweet card in either theme as one recent source, with its annotation', async () => {
    // Prepare: a light card with a red box on it, kept
    const { page } = await open(runtime().url);
    await page.click('#tab-tweet');
    await page.type('#tweet-ref', TWEET_ID);
    await page.click('#tweet-submit');
    await waitForStatus(page, '#tweet-status', 'Loaded the tweet', '#source-error');
    await drawBox(page, [100, 80], [300, 220]);
    await kept(page);
    const light = await recentNames(page);

    // Act: the same tweet in the dark theme
    await page.click('input[name="card-theme"][value="dark"]');
    await page.waitForFunction(() => document.getElementById('preview')!.getAttribute('aria-label')!.includes('dark card'), SLOW);
    await kept(page);
    await page.waitForFunction(() => document.querySelector('#recent-list .recent-name')?.textContent?.endsWith('dark card'), SLOW);

    // Assess: one entry before and after, now named for the dark card, and the box still on it
    expect(light).toHaveLength(1);
    expect(await recentNames(page)).toEqual([light[0]!.replace(/light card$/, 'dark card')]);
    expectColour(await sourcePixel(page, 100, 150), RED, 40);
    expectColour(await sourcePixel(page, 10, 10), BLACK);
  });

  it('keeps editing when the browser refuses to store anything, and says so', async () => {
    // Prepare: every IndexedDB write fails as a full disk does
    const { page, context } = await open(runtime().url);
    const refusing = await context.newPage();
    await refusing.evaluateOnNewDocument(() => {
      IDBObjectStore.prototype.put = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    });
    await page.close();
    await refusing.setViewport({ width: 1440, height: 900 });
    await refusing.goto(`${runtime().url}/`);
    await refusing.waitForSelector('html[data-ready="true"]');

    // Act
    await openImage(refusing, files.blue, 'blue.png');
    await drawBox(refusing, [100, 80], [300, 220]);
    await refusing.waitForFunction(() => document.getElementById('recent-status')!.textContent !== '', SLOW);

    // Assess: the source and the box are there; the list says what was not kept
    expectColour(await sourcePixel(refusing, 200, 150), BLUE);
    expectColour(await sourcePixel(refusing, 100, 150), RED, 40);
    expect(await text(refusing, '#recent-status')).toBe('This browser has no room left to keep the picture: it stays open until you reload.');
    expect(await refusing.$eval('#recent', (box) => (box as HTMLDetailsElement).open)).toBe(true);
  });
});
