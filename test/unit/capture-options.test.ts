import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '#shared/docs/openapi.ts';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import { HttpError } from '#shared/errors.ts';
import { parseWith } from '#shared/http/validation.ts';
import { MAX_SELECTOR_LENGTH, ScreenshotRequest } from '#shared/schemas/screenshot.ts';
import type { DeviceType } from '#shared/services/capture/devices.ts';
import { captureOptionsOf, optionsVariant } from '#shared/services/capture/options.ts';
import type { CaptureOptions } from '#shared/services/capture/options.ts';

const URL_ONLY = { url: 'https://example.com/' };

function refusal(body: unknown): { status: number; code: string; hint: string } {
  try {
    parseWith(ScreenshotRequest, body, 'body');
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    const { status, code, hint } = error as HttpError;
    return { status, code, hint };
  }
  throw new Error('the body was accepted');
}

describe('ScreenshotRequest options', () => {
  it('keeps the contract defaults and adds none beyond them when no option is sent', () => {
    // Act
    const parsed = parseWith(ScreenshotRequest, URL_ONLY, 'body');

    // Assess
    expect(parsed).toEqual({
      url: 'https://example.com/',
      deviceType: 'desktop',
      colorScheme: 'light',
      forceRefresh: false,
      fullPage: false,
      delay: 0,
      hideSelectors: [],
      blockBanners: false,
      blockAds: false,
      reducedMotion: false,
    });
  });

  it('accepts every option at its bounds', () => {
    // Prepare
    const body = {
      ...URL_ONLY,
      fullPage: true,
      selector: 'x'.repeat(MAX_SELECTOR_LENGTH),
      waitForSelector: 'main > article:nth-child(2)',
      delay: 10_000,
      hideSelectors: Array.from({ length: 20 }, (_, i) => `.ad-${i}`),
      scale: 3,
      blockBanners: true,
      blockAds: true,
    };

    // Act + Assess
    expect(parseWith(ScreenshotRequest, body, 'body')).toMatchObject({ ...body, deviceType: 'desktop' });
  });

  it.each([
    ['a delay over 10 s', { delay: 10_001 }, 400, 'invalid_request', 'delay'],
    ['a negative delay', { delay: -1 }, 400, 'invalid_request', 'delay'],
    ['a fractional delay', { delay: 1.5 }, 400, 'invalid_request', 'delay'],
    ['a scale of 4', { scale: 4 }, 400, 'unsupported_value', 'scale must be one of: 1, 2, 3.'],
    ['a selector over 512 characters', { selector: 'x'.repeat(MAX_SELECTOR_LENGTH + 1) }, 400, 'invalid_request', 'selector'],
    ['an empty selector', { selector: '' }, 400, 'invalid_request', 'selector'],
    ['a selector with a control character', { waitForSelector: 'a\nb' }, 400, 'invalid_request', 'waitForSelector'],
    ['21 hideSelectors', { hideSelectors: Array.from({ length: 21 }, () => 'a') }, 400, 'invalid_request', 'hideSelectors'],
    ['a hideSelectors entry that is not a string', { hideSelectors: ['a', 3] }, 400, 'invalid_request', 'hideSelectors[1]'],
    ['fullPage as a string', { fullPage: 'yes' }, 400, 'invalid_request', 'fullPage'],
    ['a field the contract does not know', { blockEverything: true }, 400, 'invalid_request', 'Remove blockEverything'],
  ])('refuses %s', (_case, options, status, code, hint) => {
    // Act
    const error = refusal({ ...URL_ONLY, ...options });

    // Assess
    expect(error).toMatchObject({ status, code });
    expect(error.hint).toContain(hint);
  });

  it('publishes every option, with its bounds and a description, in /openapi.json', () => {
    // Act
    const document = buildOpenApi('http://easel.test', FULL_ROUTE_LIST) as unknown as Record<string, any>;

    // Assess
    const schema = document.paths['/api/screenshot'].post.requestBody.content['application/json'].schema;
    const body = schema.$ref ? document.components.schemas[schema.$ref.split('/').at(-1)] : schema;
    expect(body.additionalProperties).toBe(false);
    expect(body.required).toEqual(['url']);
    expect(body.properties.delay).toMatchObject({ type: 'integer', minimum: 0, maximum: 10_000, default: 0 });
    expect(body.properties.scale).toMatchObject({ enum: [1, 2, 3] });
    expect(body.properties.selector).toMatchObject({ type: 'string', maxLength: MAX_SELECTOR_LENGTH });
    expect(body.properties.hideSelectors).toMatchObject({ type: 'array', maxItems: 20 });
    for (const name of ['fullPage', 'selector', 'waitForSelector', 'delay', 'hideSelectors', 'scale']) {
      expect(body.properties[name].description, name).toEqual(expect.stringMatching(/\w{4,}/));
    }
  });
});

describe('optionsVariant', () => {
  it.each([
    ['no options', {}, 'desktop'],
    ['only defaults', { fullPage: false, delay: 0, hideSelectors: [] }, 'desktop'],
    ["the desktop's own scale", { scale: 1 }, 'desktop'],
    ["the phone's own scale", { scale: 2 }, 'mobile'],
    ["the desktop's own viewport", { viewport: { width: 1920, height: 1080 } }, 'desktop'],
    ['an empty style sheet', { css: '' }, 'desktop'],
  ] satisfies [string, Partial<CaptureOptions>, DeviceType][])('is undefined for %s, so the cache key stays what it was', (_case, options, device) => {
    expect(optionsVariant(captureOptionsOf(options), device)).toBeUndefined();
  });

  it('differs for every option that differs', () => {
    // Prepare
    const variants: Partial<CaptureOptions>[] = [
      { fullPage: true },
      { selector: '#a' },
      { selector: '#b' },
      { waitForSelector: '#a' },
      { delay: 100 },
      { hideSelectors: ['#a'] },
      { scale: 2 },
      { scale: 3 },
      { fullPage: true, scale: 2 },
      { blockBanners: true },
      { blockAds: true },
      { blockBanners: true, blockAds: true },
      { viewport: { width: 1440, height: 900 } },
      { viewport: { width: 900, height: 1440 } },
      { userAgent: 'Acme/1' },
      { css: 'body { color: red }' },
      { click: '#a' },
      { reducedMotion: true },
    ];

    // Act
    const keys = variants.map((options) => optionsVariant(captureOptionsOf(options), 'desktop'));

    // Assess
    expect(keys.every((key) => typeof key === 'string' && /^[0-9a-f]{32}$/.test(key))).toBe(true);
    expect(new Set(keys).size).toBe(variants.length);
  });

  it('gives hideSelectors in any order, or repeated, one variant', () => {
    expect(optionsVariant({ hideSelectors: ['.b', '.a', '.b'] }, 'desktop')).toBe(optionsVariant({ hideSelectors: ['.a', '.b'] }, 'desktop'));
  });
});
