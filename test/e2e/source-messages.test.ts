/**
 * Messages people read, in the real browser: API failures as sentences with what to do (the
 * envelope under Details), the rate-limit countdown whole at 1440 and 375 px, Export in reach on
 * a phone without scrolling, and a failure cleared once something later succeeds.
 */
import sharp from 'sharp';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { RateLimitedError } from '#shared/errors.ts';
import { toEnvelope } from '#shared/http/envelope.ts';
import { saveScreenshot } from '../support/browser.ts';
import { exportDownload, SLOW, text, waitForStatus, writeSmallPng } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';
import { useOwnerSession } from './support/signed-in.ts';

const { runtime, workdir, open } = useEditorSuite({ name: 'messages' });
const owner = useOwnerSession(runtime, { email: 'grace@example.com', name: 'Grace Hopper', organization: 'Compilers' });
let image = '';

beforeAll(async () => {
  image = await writeSmallPng(workdir());
});

/** What is on screen in the problem box: a closed Details keeps the API's words off it. */
const shown = (page: Page, selector: string) => page.$eval(selector, (element) => (element as HTMLElement).innerText);

async function capture(page: Page, url: string): Promise<void> {
  await page.type('#capture-url', url);
  await page.click('#capture-submit');
  await page.waitForSelector('#source-error .problem-message');
}

/** Answers the page's captures with the API's own 429 envelope, waiting `seconds`. */
async function rateLimited(page: Page, seconds: number): Promise<void> {
  const { status, headers, body } = toEnvelope(new RateLimitedError({ limit: 10, windowSeconds: 60, retryAfter: seconds, headers: {} }), runtime().url);
  await page.setRequestInterception(true);
  page.on('request', (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    if (new URL(request.url()).pathname !== '/api/screenshot') return void request.continue();
    void request.respond({ status, headers, contentType: 'application/json', body: JSON.stringify(body) });
  });
}

async function openImage(page: Page): Promise<void> {
  await page.click('#tab-image');
  await (await page.$('input#image-file'))!.uploadFile(image);
  await waitForStatus(page, '#image-status', 'Opened small.png', '#source-error');
}

describe('API failures in words for people', SLOW, () => {
  it.each([
    [
      'a private address',
      'http://127.0.0.1:9/',
      'That address is on a private or local network, which Easel does not capture.',
      'Capture a page that is public on the internet',
    ],
    [
      'an address with a password',
      'https://ada:secret@example.com/',
      'That is not a web address Easel can capture.',
      'Enter a full address such as https://example.com',
    ],
  ])('says why the API refused %s and what to do, with the envelope under Details', async (_, url, sentence, advice) => {
    // Prepare
    const { page } = await open(runtime().url);
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/screenshot'));

    // Act
    await capture(page, url);
    const envelope = (await (await answer).json()) as { code: string; message: string; hint: string; documentation: string };
    const onScreen = await shown(page, '#source-error');
    await page.click('#source-error summary');

    // Assess
    expect(envelope.code).toBe('invalid_url');
    expect(await text(page, '#source-error .problem-message')).toBe(sentence);
    expect(await text(page, '#source-error .problem-advice')).toContain(advice);
    expect(onScreen).not.toContain('invalid_url');
    expect(onScreen).not.toContain(envelope.message);
    expect(await text(page, '#source-error .problem-api')).toContain(`400 invalid_url: ${envelope.message}`);
    expect(await text(page, '#source-error .problem-api')).toContain(envelope.hint);
    expect(await page.$eval('#source-error .problem-api a', (link) => (link as HTMLAnchorElement).href)).toBe(envelope.documentation);
    expect(await text(page, '#capture-status')).toBe('The capture failed.');
  });

  it('refuses what is not a web address before sending, in a sentence', async () => {
    // Prepare
    const { page } = await open(runtime().url);
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/screenshot')) sent += 1;
    });

    // Act
    await capture(page, 'https://not a url');

    // Assess
    expect(await shown(page, '#source-error')).toBe('“https://not a url” is not a web address. Enter one such as https://example.com, without spaces.');
    expect(sent).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('capture-url');
  });
});

describe('the rate-limit countdown', SLOW, () => {
  it.each([
    ['1440', { width: 1440, height: 900 }],
    ['375', { width: 375, height: 812 }],
  ])('is whole and counts down at %s px, beside a sentence saying what happened', async (_, viewport) => {
    // Prepare
    const { page } = await open(runtime().url, viewport);
    await rateLimited(page, 120);

    // Act
    await capture(page, 'https://example.com/');
    await page.waitForSelector('#capture-timer[data-seconds]');
    const first = Number(await page.$eval('#capture-timer', (element) => (element as HTMLElement).dataset.seconds));
    await page.waitForFunction((start) => Number(document.getElementById('capture-timer')!.dataset.seconds) < start, SLOW, first);
    const timer = await page.$eval('#capture-timer', (element) => ({
      text: element.textContent,
      fits: element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight,
      visible: element.getBoundingClientRect().width > 0,
    }));
    await saveScreenshot(page, `messages-countdown-${viewport.width}`);

    // Assess
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(120);
    expect(timer.text).toMatch(/^You can capture again in \d+ s\.$/);
    expect(timer).toMatchObject({ fits: true, visible: true });
    expect(await shown(page, '#source-error .problem-message')).toBe('You have captured many pages in a short time.');
    expect(await shown(page, '#source-error .problem-advice')).toBe('You can capture again when the countdown ends.');
    expect(await page.$eval('#capture-submit', (button) => button.getAttribute('aria-disabled'))).toBe('true');
  });

  it('clears the rate-limit message once capturing is possible again', async () => {
    // Prepare
    const { page } = await open(runtime().url);
    await rateLimited(page, 1);

    // Act
    await capture(page, 'https://example.com/');
    await page.waitForFunction(() => document.getElementById('capture-status')!.textContent === 'You can capture again.', SLOW);

    // Assess
    expect(await text(page, '#source-error')).toBe('');
    expect(await page.$eval('#capture-submit', (button) => button.getAttribute('aria-disabled'))).toBeNull();
  });
});

describe('Export on a phone', SLOW, () => {
  it('is on the first screen below the preview, uncovered, and exports', async () => {
    // Prepare
    const { page, downloads } = await open(runtime().url, { width: 375, height: 812 });
    await openImage(page);
    await page.evaluate(() => window.scrollTo(0, 0));

    // Act
    const layout = await page.evaluate(() => {
      const button = document.getElementById('export-button')!.getBoundingClientRect();
      const preview = document.getElementById('stage')!.getBoundingClientRect();
      const hit = document.elementFromPoint(button.x + button.width / 2, button.y + button.height / 2);
      return {
        scrollY,
        button: { top: button.top, bottom: button.bottom, left: button.left, right: button.right },
        previewBottom: preview.bottom,
        hit: hit?.id,
      };
    });
    await saveScreenshot(page, 'messages-export-375');
    const file = await exportDownload(page, downloads);

    // Assess
    expect(layout.scrollY).toBe(0);
    expect(layout.button.top).toBeGreaterThanOrEqual(layout.previewBottom);
    expect(layout.button.bottom).toBeLessThanOrEqual(812);
    expect(layout.button.left).toBeGreaterThanOrEqual(0);
    expect(layout.button.right).toBeLessThanOrEqual(375);
    expect(layout.hit).toBe('export-button');
    expect((await sharp(file).metadata()).width).toBeGreaterThan(300);
  });
});

describe('stale messages', SLOW, () => {
  it('clears a clipboard failure once a later export succeeds through Save', async () => {
    // Prepare: a clipboard that refuses images, then a copy that fails
    const { page, context } = await open(runtime().url);
    // Signed in: Save goes through the session.
    await owner.signIn(context);
    await page.reload();
    await page.waitForFunction(() => document.getElementById('auth-status')?.textContent === 'Saves to Compilers as Grace Hopper.');
    await openImage(page);
    await page.evaluate(() => {
      navigator.clipboard.write = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
    });
    await page.click('#copy-button');
    await page.waitForFunction(() => document.getElementById('export-status')!.textContent === 'Copying failed.');
    const failed = await shown(page, '#export-error');

    // Act: Save exports first, then uploads
    await page.click('#save-button');
    await waitForStatus(page, '#save-status', 'Saved', '#save-error');

    // Assess
    expect(failed).toContain('The clipboard refused the image');
    expect(await text(page, '#export-status')).toBe('Exported:');
    expect(await text(page, '#export-error')).toBe('');
  });
});
