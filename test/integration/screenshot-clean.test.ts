/**
 * POST /api/screenshot with blockBanners and blockAds through the local runtime, against the
 * corpus of test/support/clean-pages.ts served on 127.0.0.1.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { call, freshClient } from '../support/client.ts';
import { readPixels } from '../support/images.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { AD_COLOUR, BANNER_COLOUR, startCleanPages } from '../support/clean-pages.ts';
import { ACCEPTED_COLOUR } from '../support/consent-walls.ts';
import { waitFor } from '../support/expectations.ts';

const suite = useRuntimeWithPages(startCleanPages);

const capture = (body: Record<string, unknown>) => call(suite.runtime.url, '/api/screenshot', { body: { forceRefresh: true, ...body }, from: freshClient() });

/** Pixels that differ by more than 2 in any channel between two base64 PNGs of one size. */
async function differing(a: string, b: string): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((png) => sharp(Buffer.from(png, 'base64')).removeAlpha().raw().toBuffer()));
  let n = 0;
  for (let i = 0; i < x!.length; i += 3) if ([0, 1, 2].some((c) => Math.abs(x![i + c]! - y![i + c]!) > 2)) n++;
  return n;
}

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
    const body = response.body as { screenshot: string; cached: boolean; report: { consent?: string } };
    expect(body.cached).toBe(false);
    // The report says what became of the dialog, and only when asked to deal with one.
    expect(body.report.consent).toBe(shown ? undefined : 'opted-out');
    const banner = await count(body.screenshot, BANNER_COLOUR);
    if (shown) expect(banner).toBeGreaterThan(1920 * 290);
    else expect(banner).toBe(0);
  });

  it('captures a scroll-locked page whose dialog left its backdrop whole, as the page without the dialog', async () => {
    // Prepare
    const url = `${suite.pages.origin}/leftovers/unknown-fixed`;
    const without = (await capture({ url: `${url}?without`, fullPage: true })).body as { screenshot: string; capturedHeight: number };

    // Act
    const response = await capture({ url, fullPage: true, blockBanners: true });

    // Assess
    expect(response.status).toBe(200);
    const body = response.body as { screenshot: string; truncated: boolean; capturedHeight: number; report: { consent: string } };
    expect(body.report.consent).toBe('opted-out');
    expect(without.capturedHeight).toBeGreaterThan(2_400);
    expect({ truncated: body.truncated, capturedHeight: body.capturedHeight }).toEqual({ truncated: false, capturedHeight: without.capturedHeight });
    expect(await differing(body.screenshot, without.screenshot)).toBe(0);
  });

  it.each([
    ['pay-or-accept wall', 'pay-en', 'hidden', []],
    ['wall with a close control', 'close-en', 'closed', ['Close']],
  ])('captures a %s as the page without it, never accepting (%s)', async (_name, wall, consent, said) => {
    // Prepare
    const url = `${suite.pages.origin}/walls/${wall}`;
    const without = (await capture({ url: `${url}?without` })).body as { screenshot: string };
    const before = suite.pages.clicks.length;

    // Act
    const response = await capture({ url, blockBanners: true });

    // Assess
    expect(response.status).toBe(200);
    const body = response.body as { screenshot: string; report: { consent: string } };
    expect(body.report.consent).toBe(consent);
    expect(await count(body.screenshot, BANNER_COLOUR)).toBe(0);
    expect(await count(body.screenshot, ACCEPTED_COLOUR)).toBe(0);
    expect(await differing(body.screenshot, without.screenshot)).toBe(0);
    // The page posts each click as it happens; the close arrives, and nothing else was clicked.
    const clicks = await waitFor(async () => (suite.pages.clicks.length - before >= said.length ? suite.pages.clicks.slice(before) : undefined));
    expect(clicks).toEqual(said);
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
