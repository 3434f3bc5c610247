/**
 * POST /api/screenshot with blockBanners and blockAds through the local runtime, against the
 * corpus of test/support/clean-pages.ts served on 127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { call, freshClient } from '../support/client.ts';
import { readPixels } from '../support/images.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { AD_COLOUR, BANNER_COLOUR, startCleanPages } from '../support/clean-pages.ts';

const suite = useRuntimeWithPages(startCleanPages);

const capture = (body: Record<string, unknown>) => call(suite.runtime.url, '/api/screenshot', { body: { forceRefresh: true, ...body }, from: freshClient() });

/** Pixels of `colour` (±8 per channel) in a base64 PNG. */
const count = async (base64: string, colour: { r: number; g: number; b: number }) => (await readPixels(base64)).count([colour.r, colour.g, colour.b]);

describe('POST /api/screenshot: clean captures', () => {
  it.each([
    ['without blockBanners', {}, true],
    ['with blockBanners', { blockBanners: true }, false],
  ])('captures the OneTrust page %s', async (_name, options, shown) => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/consent/onetrust`, ...options });

    // Assess
    expect(response.status).toBe(200);
    const body = response.body as { screenshot: string; cached: boolean };
    expect(body.cached).toBe(false);
    const banner = await count(body.screenshot, BANNER_COLOUR);
    if (shown) expect(banner).toBeGreaterThan(1920 * 290);
    else expect(banner).toBe(0);
  });

  it.each([
    ['without blockAds', {}, 300 * 250],
    ['with blockAds', { blockAds: true }, 0],
  ])('captures the first-party ad page %s', async (_name, options, red) => {
    // Prepare
    const before = suite.pages.adHits.length;

    // Act
    const response = await capture({ url: `${suite.pages.origin}/first-party-ads`, ...options });

    // Assess
    expect(response.status).toBe(200);
    expect(await count((response.body as { screenshot: string }).screenshot, AD_COLOUR)).toBe(red);
    expect(suite.pages.adHits.length - before).toBe(red ? 1 : 0);
  });

  it('keeps a capture with blockBanners apart from one without in the cache', async () => {
    // Prepare
    const url = `${suite.pages.origin}/consent/didomi`;
    await call(suite.runtime.url, '/api/screenshot', { body: { url }, from: freshClient() });

    // Act
    const response = await call(suite.runtime.url, '/api/screenshot', { body: { url, blockBanners: true }, from: freshClient() });

    // Assess
    const body = response.body as { screenshot: string; cached: boolean };
    expect(body.cached).toBe(false);
    expect(await count(body.screenshot, BANNER_COLOUR)).toBe(0);
  });
});
