/**
 * "Redact sensitive data" in the real browser against the local runtime: a local page with two
 * e-mail addresses and an AWS key captured, the action run, its boxes checked where the text is,
 * one switched to pixelate, one removed and brought back by undo, and the export judged on pixels.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Annotation, ShapeAnnotation } from '#editor/src/model/edits.ts';
import { saveScreenshot } from '../support/browser.ts';
import { serveOnLoopback } from '../support/loopback-server.ts';
import { exportDownload, previewSettled, SLOW, text, waitForStatus } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';

/** The default padding at the Auto scale (1× for a desktop capture), with no frame. */
const PADDING = 64;
/** Pixelation blocks in source pixels (annotation-drawing.ts). */
const PIXEL_BLOCK = 12;
// Split, so secret scanners of this repository do not flag the fixture.
const AWS_KEY = ['AKIA', 'Q3EGRSTUVWXYZ234'].join('');
/** Where each piece of text is laid out: one line of 24 px monospace each. */
const SPANS = {
  first: { left: 40, top: 40, text: 'alice.smith@example.com' },
  label: { left: 40, top: 120, text: 'Key:' },
  key: { left: 120, top: 120, text: AWS_KEY },
  second: { left: 40, top: 200, text: 'bob.jones@example.org' },
};
const LINE = 32;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
html,body{margin:0;background:#fff;color:#000}span{position:absolute;font:24px/${LINE}px monospace;white-space:nowrap}
</style></head><body>${Object.values(SPANS)
  .map(({ left, top, text: words }) => `<span style="left:${left}px;top:${top}px">${words}</span>`)
  .join('')}</body></html>`;

let loads = 0;
const { runtime, workdir, open, site } = useEditorSuite({
  name: 'redact',
  site: () =>
    serveOnLoopback((request, response) => {
      const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
      // Taller at each load: a full page captured again is laid out otherwise.
      if (request.url === '/growing') return void html(PAGE.replace('</body>', `<div style="height:${1000 + 200 * ((loads += 1))}px"></div></body>`));
      html(PAGE);
    }),
  env: { CAPTURE_TIMEOUT_MS: '25000' },
});

async function capture(page: Page, path = '/secrets'): Promise<void> {
  await page.click('#tab-capture');
  await page.$eval('#capture-url', (input) => ((input as HTMLInputElement).value = ''));
  await page.type('#capture-url', `${site().origin}${path}`);
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/screenshot'), SLOW);
  await page.click('#capture-submit');
  await answered;
  await waitForStatus(page, '#capture-status', 'Captured', '#source-error');
  await previewSettled(page);
}

/**
 * Runs the action by the panel's button, unless given another way (its key), and
 * checks it asks for the same page as the source's capture (`sent`), with every kind.
 */
async function redact(
  page: Page,
  start = () => page.click('#redact-button'),
  sent: Record<string, unknown> = { url: `${site().origin}/secrets` },
): Promise<string> {
  const request = page.waitForRequest((candidate) => candidate.url().endsWith('/api/screenshot') && candidate.method() === 'POST');
  await start();
  const body = JSON.parse((await request).postData() ?? '{}') as Record<string, unknown>;
  expect(body).toMatchObject({
    deviceType: 'desktop',
    colorScheme: 'light',
    redact: ['email', 'phone', 'card', 'secret', 'ip'],
    ...sent,
  });
  const status = await waitForStatus(page, '#redact-status', 'Found', '#redact-error');
  await previewSettled(page);
  return status;
}

/** A click on a phone: first into the band between the sticky preview and the Export bar (the page's scroll padding), where a tap reaches it. */
async function tap(page: Page, selector: string): Promise<void> {
  await page.$eval(selector, (element) => element.scrollIntoView({ block: 'center' }));
  await page.click(selector);
}

/** The action's key, where the focus is after a capture (the Capture button). */
async function shiftR(page: Page): Promise<void> {
  await page.keyboard.down('Shift');
  await page.keyboard.press('R');
  await page.keyboard.up('Shift');
}

async function annotations(page: Page): Promise<ShapeAnnotation[]> {
  return page.evaluate(() => {
    const all = JSON.parse(localStorage.getItem('easel.editor.edits') ?? '[]') as [string, { annotations: Annotation[] }][];
    return (all[0]?.[1].annotations ?? []) as ShapeAnnotation[];
  });
}

/** The annotation over a span: its box starts at the span's left and holds the middle of its line. */
function over(list: readonly ShapeAnnotation[], span: { left: number; top: number }): ShapeAnnotation | undefined {
  return list.find(
    (a) => Math.abs(Math.min(a.x1, a.x2) - span.left) <= 3 && Math.min(a.y1, a.y2) <= span.top + LINE / 2 && Math.max(a.y1, a.y2) >= span.top + LINE / 2,
  );
}

/** Clicks a source point with the select tool. */
async function clickSource(page: Page, x: number, y: number): Promise<void> {
  await previewSettled(page);
  const { view, left, top } = await page.$eval('#annotate-overlay', (overlay) => {
    const rect = overlay.getBoundingClientRect();
    return { view: JSON.parse((overlay as HTMLElement).dataset.view!) as { box: { x: number; y: number }; scale: number }, left: rect.x, top: rect.y };
  });
  await page.mouse.click(left + view.box.x + x * view.scale, top + view.box.y + y * view.scale);
}

/** Luminance of every pixel of a box of the exported image, by rows. */
async function luminances(image: Buffer, box: { x: number; y: number; width: number; height: number }): Promise<number[][]> {
  const { data, info } = await sharp(image)
    .extract({ left: box.x, top: box.y, width: box.width, height: box.height })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rows: number[][] = [];
  for (let y = 0; y < info.height; y += 1) {
    const row: number[] = [];
    for (let x = 0; x < info.width; x += 1) {
      const i = (y * info.width + x) * info.channels;
      row.push(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    }
    rows.push(row);
  }
  return rows;
}

/** The export's whole pixels inside an annotation's box (inset one pixel from its edges). */
function inside(a: ShapeAnnotation) {
  const x = Math.ceil(PADDING + Math.min(a.x1, a.x2)) + 1;
  const y = Math.ceil(PADDING + Math.min(a.y1, a.y2)) + 1;
  return { x, y, width: Math.floor(PADDING + Math.max(a.x1, a.x2)) - 1 - x, height: Math.floor(PADDING + Math.max(a.y1, a.y2)) - 1 - y };
}

/** Whether every pixelation block wholly inside the box is one flat colour: nothing of a glyph's shape is left. */
function flatBlocks(rows: number[][], originX: number, originY: number): { flat: number; blocks: number } {
  let flat = 0;
  let blocks = 0;
  for (let by = originY; by + PIXEL_BLOCK <= rows.length; by += PIXEL_BLOCK) {
    for (let bx = originX; bx + PIXEL_BLOCK <= rows[0]!.length; bx += PIXEL_BLOCK) {
      const values = rows.slice(by, by + PIXEL_BLOCK).flatMap((row) => row.slice(bx, bx + PIXEL_BLOCK));
      blocks += 1;
      if (Math.max(...values) - Math.min(...values) <= 2) flat += 1;
    }
  }
  return { flat, blocks };
}

describe('Redact sensitive data', SLOW, () => {
  it('is disabled for an uploaded image, saying why', async () => {
    const { page } = await open(runtime().url);
    expect(await page.$eval('#redact-button', (button) => (button as HTMLButtonElement).disabled)).toBe(true);
    const png = join(workdir(), 'plain.png');
    await writeFile(
      png,
      await sharp({ create: { width: 200, height: 100, channels: 3, background: '#ffffff' } })
        .png()
        .toBuffer(),
    );
    await page.click('#tab-image');
    await (await page.$('input#image-file'))!.uploadFile(png);
    await waitForStatus(page, '#image-status', 'Opened plain.png', '#source-error');
    expect(await page.$eval('#redact-button', (button) => (button as HTMLButtonElement).disabled)).toBe(true);
    const why = "Finding sensitive text needs a captured page: the editor reads the page's text, not the picture's pixels.";
    expect(await text(page, '#redact-status')).toBe(why);
    expect(await page.$eval('#redact-button', (button) => button.getAttribute('title'))).toBe(why);
    // The kinds are kept like the settings: one unticked stays so after a reload.
    await page.click('#redact-kind-ip');
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    expect(await page.$$eval('input[name="redact-kind"]', (inputs) => inputs.map((input) => (input as HTMLInputElement).checked))).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('replaces the source with the redacted capture when the page is laid out otherwise, and says so', async () => {
    const { page } = await open(runtime().url);
    await page.click('#capture-full-page');
    await capture(page, '/growing');
    const before = await page.$eval('#readout', (element) => Number((element as HTMLElement).dataset.height));
    expect(await redact(page, undefined, { url: `${site().origin}/growing`, fullPage: true })).toBe('Found 2 e-mail addresses, 1 API key — review the boxes.');
    expect(await text(page, '#redact-note')).toMatch(/^The page laid out differently this time/);
    const after = await page.$eval('#readout', (element) => Number((element as HTMLElement).dataset.height));
    expect(after - before).toBe(200);
    // The boxes are the new source's only edits, one undo step on its own history.
    expect((await annotations(page)).length).toBe(3);
    expect(await page.$eval('#annotate-undo', (button) => button.getAttribute('aria-label'))).toBe('Undo (1/100)');
  });

  it('covers the e-mails and the key where they are, switches one to pixelate, removes one and undoes, and exports them unreadable', async () => {
    const { page, downloads } = await open(runtime().url);
    await capture(page);
    expect(await page.$eval('#redact-button', (button) => (button as HTMLButtonElement).disabled)).toBe(false);
    expect(await redact(page, () => shiftR(page))).toBe('Found 2 e-mail addresses, 1 API key — review the boxes.');
    // One undo step for the whole set, all solid.
    expect(await page.$eval('#annotate-undo', (button) => button.getAttribute('aria-label'))).toBe('Undo (1/100)');
    const found = await annotations(page);
    expect(found.map((a) => a.kind)).toEqual(['solid', 'solid', 'solid']);
    for (const span of [SPANS.first, SPANS.key, SPANS.second]) {
      const box = over(found, span);
      expect(box, `a box over ${span.text}`).toBeDefined();
      // 24 px monospace is 12–16 px a character wide.
      const width = Math.abs(box!.x2 - box!.x1);
      expect(width).toBeGreaterThan(span.text.length * 12);
      expect(width).toBeLessThan(span.text.length * 16);
    }
    // The control: the label beside the key is no finding.
    expect(over(found, SPANS.label)).toBeUndefined();
    await saveScreenshot(page, 'editor-redact-found-1440');

    // Review: the second address pixelated, the key removed and brought back by undo.
    const second = over(found, SPANS.second)!;
    await clickSource(page, (second.x1 + second.x2) / 2, (second.y1 + second.y2) / 2);
    expect(await text(page, '#redact-style-label')).toBe('Cover the selected box with');
    await page.click('.redact-style-button[data-style="pixelate"]');
    const key = over(found, SPANS.key)!;
    await clickSource(page, (key.x1 + key.x2) / 2, (key.y1 + key.y2) / 2);
    await page.keyboard.press('Delete');
    expect((await annotations(page)).length).toBe(2);
    await page.click('#annotate-undo');
    const reviewed = await annotations(page);
    expect(reviewed.map((a) => [a.id, a.kind])).toEqual(found.map((a) => [a.id, a.id === second.id ? 'pixelate' : 'solid']));
    await page.keyboard.press('Escape');
    await saveScreenshot(page, 'editor-redact-reviewed-1440');

    const file = await exportDownload(page, downloads);
    // Solid: every pixel black.
    for (const span of [SPANS.first, SPANS.key]) {
      const rows = await luminances(file, inside(over(reviewed, span)!));
      expect(Math.max(...rows.flat()), span.text).toBeLessThanOrEqual(4);
    }
    // Pixelated: every whole block flat, so no glyph's shape is left.
    const pixelated = over(reviewed, SPANS.second)!;
    const area = inside(pixelated);
    const rows = await luminances(file, area);
    const start = (edge: number, from: number) => (((Math.floor(PADDING + edge) - from) % PIXEL_BLOCK) + PIXEL_BLOCK) % PIXEL_BLOCK;
    const blocks = flatBlocks(rows, start(Math.min(pixelated.x1, pixelated.x2), area.x), start(Math.min(pixelated.y1, pixelated.y2), area.y));
    expect(blocks.blocks).toBeGreaterThan(10);
    expect(blocks.flat).toBe(blocks.blocks);
    // The control: the unredacted label's text is there, black on white, and not flat.
    const label = await luminances(file, { x: PADDING + SPANS.label.left, y: PADDING + SPANS.label.top, width: 48, height: LINE });
    expect(Math.min(...label.flat())).toBeLessThan(60);
    expect(Math.max(...label.flat())).toBeGreaterThan(200);
    expect(flatBlocks(label, 0, 0).flat).toBeLessThan(flatBlocks(label, 0, 0).blocks);
  });

  it('says when it finds nothing, adding no box and no undo step, and reads on a phone', async () => {
    // A phone captures as a phone by default.
    const { page } = await open(runtime().url, { width: 375, height: 812 });
    await capture(page);
    // Only card numbers, which the page has none of: nothing to cover.
    for (const kind of ['email', 'phone', 'secret', 'ip']) await tap(page, `#redact-kind-${kind}`);
    const sent = page.waitForRequest((request) => request.url().endsWith('/api/screenshot') && request.method() === 'POST');
    await tap(page, '#redact-button');
    expect(JSON.parse((await sent).postData() ?? '{}')).toMatchObject({ redact: ['card'] });
    expect(await waitForStatus(page, '#redact-status', 'Found', '#redact-error')).toBe('Found nothing to redact.');
    expect(await annotations(page)).toEqual([]);
    expect(await page.$eval('#annotate-undo', (button) => button.getAttribute('aria-label'))).toBe('Undo (0/100)');
    for (const kind of ['email', 'phone', 'secret', 'ip']) await tap(page, `#redact-kind-${kind}`);
    expect(await redact(page, undefined, { url: `${site().origin}/secrets`, deviceType: 'mobile' })).toBe(
      'Found 2 e-mail addresses, 1 API key — review the boxes.',
    );
    // The summary and the review buttons are in view, below the sticky preview and above the Export bar.
    const visible = await page.$$eval('#redact-status, .redact-style-button', (elements) =>
      elements.map((element) => {
        const rect = element.getBoundingClientRect();
        const top = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
        return element === top || element.contains(top);
      }),
    );
    expect(visible).toEqual([true, true, true, true]);
    await saveScreenshot(page, 'editor-redact-375');
    // The panel fits the screen's width.
    const { left, right } = await page.$eval('.panel-redact', (panel) => {
      const rect = panel.getBoundingClientRect();
      return { left: rect.left, right: rect.right };
    });
    expect(left).toBeGreaterThanOrEqual(0);
    expect(right).toBeLessThanOrEqual(375);
  });
});
