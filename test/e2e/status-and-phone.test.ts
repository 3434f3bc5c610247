/**
 * Status lines that speak of the present and the editor on a 375 px screen, in the real browser:
 * a refused option after a capture, the exported file's link in view above the phone's Export bar,
 * the Phone device by default with its capture previewed at a readable size, and the zoom group.
 */
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser.ts';
import { exportDownload, previewSettled, SLOW, text, waitForStatus, writeSmallPng } from './support/editor-page.ts';
import { onePage, useEditorSuite } from './support/editor-suite.ts';

const PHONE = { width: 375, height: 812 };
/** A phone capture's layout width: its viewport. */
const PHONE_LAYOUT_WIDTH = 375;

const { runtime, workdir, open, site } = useEditorSuite({
  name: 'status-phone',
  site: onePage('<!doctype html><meta name="viewport" content="width=device-width"><title>Menu</title><body style="font:20px sans-serif">Today’s menu'),
});

let image = '';
beforeAll(async () => {
  image = await writeSmallPng(workdir());
});

async function capture(page: Page): Promise<string> {
  const sent = page.waitForRequest((request) => request.url().endsWith('/api/screenshot') && request.method() === 'POST');
  await page.type('#capture-url', `${site().origin}/`);
  await page.click('#capture-submit');
  await waitForStatus(page, '#capture-status', 'Captured', '#source-error');
  await previewSettled(page);
  return (JSON.parse((await sent).postData() ?? '{}') as { deviceType: string }).deviceType;
}

/** Whether the element is on screen and what a tap at its middle reaches. */
const reachable = (page: Page, selector: string) =>
  page.$eval(selector, (element) => {
    const rect = element.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
    return { inView: rect.top >= 0 && rect.bottom <= innerHeight, reached: hit === element || element.contains(hit) };
  });

describe('status lines', SLOW, () => {
  it('stops reporting the last capture when the next one is refused before sending', async () => {
    // Prepare
    const { page } = await open(runtime().url);
    await capture(page);
    const before = await text(page, '#capture-status');

    // Act: a delay out of range
    await page.click('#capture-advanced summary');
    await page.type('#capture-delay', '20000');
    await page.click('#capture-submit');
    await page.waitForSelector('#source-error .problem-message');

    // Assess
    expect(before).toMatch(/^Captured 127\.0\.0\.1:\d+ \(desktop, light\)/);
    expect(await text(page, '#capture-status')).toBe('Not captured: see what to change below.');
    expect(await text(page, '#source-error .problem-message')).not.toBe('');
  });

  it('shows the exported file and its link on a phone right under the status, where a tap reaches it', async () => {
    // Prepare
    const { page, downloads } = await open(runtime().url, PHONE);
    await page.click('#tab-image');
    await (await page.$('input#image-file'))!.uploadFile(image);
    await waitForStatus(page, '#image-status', 'Opened small.png', '#source-error');
    const emptyBar = await page.$eval('.export-bar', (bar) => bar.getBoundingClientRect().top);

    // Act
    await exportDownload(page, downloads);
    await saveScreenshot(page, 'export-result-375');

    // Assess: the link a tap reaches, on the first screen, and the bar did not grow
    expect(await text(page, '#export-status')).toBe('Exported and downloaded:');
    expect(await reachable(page, '#export-result a')).toEqual({ inView: true, reached: true });
    expect(await page.$eval('.export-bar', (bar) => bar.getBoundingClientRect().top)).toBe(emptyBar);
  });
});

describe('on a phone', SLOW, () => {
  it.each([
    ['a 375 px screen', 'mobile', PHONE],
    ['a 1440 px screen', 'desktop', { width: 1440, height: 900 }],
  ])('starts the Device on %s as %s', async (_name, device, viewport) => {
    const { page } = await open(runtime().url, viewport);
    expect(await page.$eval('input[name="device"]:checked', (input) => (input as HTMLInputElement).value)).toBe(device);
  });

  it('captures as a phone by default, previews it readably, and names the zoom level once', async () => {
    // Prepare
    const { page } = await open(runtime().url, PHONE);

    // Act
    const device = await capture(page);
    const view = await page.$eval(
      '#annotate-overlay',
      (overlay) => JSON.parse((overlay as HTMLElement).dataset.view!) as { scale: number; box: { width: number } },
    );
    const zoom = await page.$eval('.annotate-zoom', (group) => (group.textContent ?? '').replace(/\s+/g, ' ').trim());
    await saveScreenshot(page, 'phone-capture-375');

    // Assess: a phone capture drawn at more than a third of its size (a desktop one fitted 0.16, a phone one in a 16:10 box 0.24)
    expect(device).toBe('mobile');
    expect(view.scale).toBeGreaterThan(0.35);
    expect(view.box.width).toBeCloseTo(PHONE_LAYOUT_WIDTH * view.scale, 3);
    expect(zoom).toBe(`− ${Math.round(view.scale * 100)} % + Fit 1:1`);
    expect(await page.$eval('#zoom-fit', (button) => button.getAttribute('aria-pressed'))).toBe('true');
  });
});
