/**
 * POST /api/screenshot's viewport, userAgent, css, click and reducedMotion (issue 32) through the
 * local runtime and the real Chromium, judged on the pixels of pages that turn green only when the
 * option did its work (test/support/signed-in-pages.ts).
 */
import { describe, expect, it } from 'vitest';
import { call, freshClient } from '../support/client.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { readPixels } from '../support/images.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { GREEN, PASS, RED, startSignedInPages } from '../support/signed-in-pages.ts';

const suite = useRuntimeWithPages(startSignedInPages);

const capture = (body: Record<string, unknown>) => call(suite.runtime.url, '/api/screenshot', { body, from: freshClient() });
const envelope = (status: number, code: string) => expectedEnvelope(suite.runtime.url, status, code);
const VIEWPORT = 1920 * 1080;
// The click page's button, in pixels: neither red nor green.
const BUTTON = 300 * 120;

describe('POST /api/screenshot: viewport', () => {
  it.each([
    ['desktop', { deviceType: 'desktop', viewport: { width: 1440, height: 900 } }, { width: 1440, height: 900 }],
    ['mobile, at its scale 2', { deviceType: 'mobile', viewport: { width: 390, height: 844 } }, { width: 780, height: 1688 }],
    ['desktop at scale 2', { deviceType: 'desktop', viewport: { width: 1280, height: 800 }, scale: 2 }, { width: 2560, height: 1600 }],
  ])('captures %s at the viewport asked for', async (_case, options, size) => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/blank?viewport=${options.viewport.width}`, ...options });

    // Assess
    expect(response.status).toBe(200);
    const image = await readPixels(response.body.screenshot);
    expect({ width: image.width, height: image.height }).toEqual(size);
  });

  it('keeps captures at different viewports apart in the cache', async () => {
    // Prepare
    const url = `${suite.pages.origin}/blank?run=viewport-cache`;
    const wide = await capture({ url, viewport: { width: 1440, height: 900 } });

    // Act
    const narrow = await capture({ url, viewport: { width: 1280, height: 800 } });
    const wideAgain = await capture({ url, viewport: { width: 1440, height: 900 } });

    // Assess
    expect([wide.body.cached, narrow.body.cached, wideAgain.body.cached]).toEqual([false, false, true]);
  });

  it('refuses a viewport that at its scale is larger than one picture of the screen, with 400 naming viewport', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/blank`, viewport: { width: 3840, height: 2160 }, scale: 3 });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      ...envelope(400, 'invalid_request'),
      error: 'Invalid viewport',
      message: 'Invalid viewport',
      hint: 'viewport: 3840×2160 at scale 3 is 11520×6480 image pixels; a screen is at most 8192 pixels a side and 31457280 in all. Lower scale or the viewport.',
    });
  });
});

describe('POST /api/screenshot: userAgent', () => {
  it.each([
    ['sends it in the request and to the page', { userAgent: PASS.userAgent }, GREEN],
    ["leaves the device's own without it (the control)", {}, RED],
  ])('%s', async (_case, options, colour) => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/agent`, ...options });

    // Assess
    expect(response.status).toBe(200);
    expect((await readPixels(response.body.screenshot)).count(colour)).toBe(VIEWPORT);
  });
});

describe('POST /api/screenshot: css', () => {
  it('applies the style sheet before the picture', async () => {
    // Act
    const response = await capture({
      url: `${suite.pages.origin}/blank?run=css`,
      css: 'body { background: rgb(0, 160, 0) !important } h1 { visibility: hidden }',
    });

    // Assess
    expect(response.status).toBe(200);
    expect((await readPixels(response.body.screenshot)).count(GREEN)).toBe(VIEWPORT);
  });

  it('keeps its text CSS: markup in it closes no tag and runs no script', async () => {
    // Prepare: a script that would ask the page server for /ran if it ever ran
    const css = `body { background: rgb(0, 160, 0) } h1 { visibility: hidden }\n</style><script>fetch('/ran?from=css')</script><style>`;

    // Act
    const response = await capture({ url: `${suite.pages.origin}/blank?run=css-markup`, css });

    // Assess
    expect(response.status).toBe(200);
    expect((await readPixels(response.body.screenshot)).count(GREEN)).toBe(VIEWPORT);
    expect(suite.pages.hits.filter((hit) => hit.path.startsWith('/ran'))).toEqual([]);
  });
});

describe('POST /api/screenshot: click', () => {
  it('clicks the element once the page is ready, before waitForSelector waits for what the click opens', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/click`, click: '#open', waitForSelector: '#opened' });

    // Assess
    expect(response.status).toBe(200);
    const image = await readPixels(response.body.screenshot);
    expect(image.count(GREEN)).toBe(VIEWPORT - BUTTON);
    expect(image.count(RED)).toBe(0);
  });

  it('shows the page unclicked without it (the control)', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/click` });

    // Assess
    expect((await readPixels(response.body.screenshot)).count(RED)).toBe(VIEWPORT - BUTTON);
  });

  it('answers 404 not_found naming the selector when nothing matches', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/click`, click: '#nothing-here' });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      ...envelope(404, 'not_found'),
      error: 'No element matches the click selector',
      message: 'No element matches the click selector',
      hint: 'No element with a visible box matches click "#nothing-here" once the page is ready; check it against the page, or capture without click.',
    });
  });

  it('refuses an invalid click selector with 400 before loading the page', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/click?run=never-loaded`, click: 'button[' });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      ...envelope(400, 'invalid_request'),
      error: 'Invalid click',
      message: 'Invalid click',
      hint: 'click is not a valid CSS selector: "button[".',
    });
    expect(suite.pages.hits.filter((hit) => hit.path === '/click?run=never-loaded')).toEqual([]);
  });
});

describe('POST /api/screenshot: reducedMotion', () => {
  it('sends prefers-reduced-motion and finishes the animation and the transition before the picture', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/motion`, reducedMotion: true });

    // Assess
    expect(response.status).toBe(200);
    expect((await readPixels(response.body.screenshot)).count(GREEN)).toBe(VIEWPORT);
  });

  it('shows them mid-way without it (the control)', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/motion` });

    // Assess
    const image = await readPixels(response.body.screenshot);
    expect(image.count(GREEN)).toBe(0);
    expect(image.count(RED)).toBeGreaterThan(VIEWPORT / 3);
  });
});
