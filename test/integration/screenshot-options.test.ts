/**
 * POST /api/screenshot's capture options through the local runtime and the real Chromium, judged
 * on the pixels of pages that behave as real sites do (test/support/target-pages.ts).
 */
import { describe, expect, it } from 'vitest';
import { MAX_CAPTURE_HEIGHT_PX } from '#shared/schemas/screenshot.ts';
import { call, freshClient } from '../support/client.ts';
import { readPixels } from '../support/images.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { OPTION_COLOURS, OPTIONS_BOX, OPTIONS_PAGE_HEIGHT, pngSize, startTargetPages } from '../support/target-pages.ts';

const suite = useRuntimeWithPages(startTargetPages);

const capture = (body: Record<string, unknown>) => call(suite.runtime.url, '/api/screenshot', { body, from: freshClient() });
const envelope = (status: number, code: string) => expectedEnvelope(suite.runtime.url, status, code);

describe('POST /api/screenshot: fullPage', () => {
  it('captures the whole page with the lazy image and the scroll-loaded content, and the sticky header once', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/options`, fullPage: true });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      screenshot: expect.any(String),
      url: `${suite.pages.origin}/options`,
      cached: false,
      strategy: 'local-chromium',
      deviceType: 'desktop',
      colorScheme: 'light',
      truncated: false,
      capturedHeight: OPTIONS_PAGE_HEIGHT,
      report: expect.objectContaining({ status: 200, images: { found: 1, loaded: 1 } }),
    });
    const image = await readPixels(response.body.screenshot);
    expect({ width: image.width, height: image.height }).toEqual({ width: 1920, height: OPTIONS_PAGE_HEIGHT });
    expect(image.count(OPTION_COLOURS.lazyImage)).toBe(400 * 300);
    expect(image.count(OPTION_COLOURS.scrollLoaded)).toBe(400 * 300);
    expect(image.rows(10, OPTION_COLOURS.header)).toBe(100);
  });

  it('cuts a 30,000 px page at the maximum height, says so, and stays under what a Lambda answer carries', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/tall?height=30000`, fullPage: true });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ cached: false, truncated: true, capturedHeight: MAX_CAPTURE_HEIGHT_PX });
    expect(pngSize(Buffer.from(response.body.screenshot, 'base64'))).toEqual({ width: 1920, height: MAX_CAPTURE_HEIGHT_PX });
    expect(Buffer.byteLength(JSON.stringify(response.body))).toBeLessThan(6_000_000);
  });

  it('keeps a full-page capture and a viewport capture of one URL apart in the cache', async () => {
    // Prepare
    const url = `${suite.pages.origin}/counter?key=full-page-cache`;
    const viewport = await capture({ url });

    // Act
    const full = await capture({ url, fullPage: true });
    const again = await capture({ url, fullPage: true });

    // Assess
    expect([viewport.body.cached, full.body.cached, again.body.cached]).toEqual([false, false, true]);
    expect(again.body).toMatchObject({ truncated: false, capturedHeight: 1080 });
    expect(again.body.screenshot).toBe(full.body.screenshot);
  });
});

describe('POST /api/screenshot: selector', () => {
  it('captures only the first matching element, at its box × scale, even below the fold', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/options`, selector: '#box', scale: 2 });

    // Assess
    expect(response.status).toBe(200);
    const image = await readPixels(response.body.screenshot);
    expect({ width: image.width, height: image.height }).toEqual({ width: OPTIONS_BOX.width * 2, height: OPTIONS_BOX.height * 2 });
    expect(image.count(OPTION_COLOURS.box)).toBe(image.width * image.height);
  });

  it('answers 404 not_found naming the selector when nothing matches once the page is ready', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/options`, selector: '.nothing-here' });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      ...envelope(404, 'not_found'),
      error: 'No element matches the selector',
      message: 'No element matches the selector',
      hint: 'No element with a visible box matches selector ".nothing-here" once the page is ready; check it against the page, or wait for it with waitForSelector.',
    });
  });

  it.each([
    ['selector', { selector: 'div[' }, 'selector is not a valid CSS selector: "div[".'],
    ['hideSelectors', { hideSelectors: ['.ok', 'a{} body'] }, 'hideSelectors[1] is not a valid CSS selector: "a{} body".'],
  ])('refuses an invalid %s with 400 invalid_request before loading the page', async (_field, options, hint) => {
    // Prepare
    const before = suite.pages.hits.filter((hit) => hit.path === '/plain?title=never-loaded').length;

    // Act
    const response = await capture({ url: `${suite.pages.origin}/plain?title=never-loaded`, ...options });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      ...envelope(400, 'invalid_request'),
      hint,
      error: expect.stringMatching(/^Invalid /),
      message: expect.stringMatching(/^Invalid /),
    });
    expect(suite.pages.hits.filter((hit) => hit.path === '/plain?title=never-loaded').length).toBe(before);
  });
});

describe('POST /api/screenshot: waiting and hiding', () => {
  it('waits for an element that appears late with waitForSelector', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/app?after=700`, waitForSelector: '#app' });

    // Assess
    expect(response.status).toBe(200);
    expect((await readPixels(response.body.screenshot)).count(OPTION_COLOURS.app)).toBe(400 * 300);
  });

  it('waits delay milliseconds for an app that draws without a request, later than settling waits', async () => {
    // Prepare: its timer is due past settling's horizon, so without the delay the app has not drawn yet
    const plain = await capture({ url: `${suite.pages.origin}/app?after=2500` });

    // Act
    const delayed = await capture({ url: `${suite.pages.origin}/app?after=2500`, delay: 3000 });

    // Assess
    expect([plain.status, delayed.status]).toEqual([200, 200]);
    expect(delayed.body.cached).toBe(false);
    expect((await readPixels(plain.body.screenshot)).count(OPTION_COLOURS.app)).toBe(0);
    expect((await readPixels(delayed.body.screenshot)).count(OPTION_COLOURS.app)).toBe(400 * 300);
  });

  it('hides the elements hideSelectors match and nothing else', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/options`, hideSelectors: ['.promo', 'footer'] });

    // Assess
    expect(response.status).toBe(200);
    const image = await readPixels(response.body.screenshot);
    expect(image.count(OPTION_COLOURS.hidden)).toBe(0);
    expect(image.rows(10, OPTION_COLOURS.header)).toBe(100);
  });
});
