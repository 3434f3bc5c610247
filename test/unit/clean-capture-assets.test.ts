/** What bundling writes beside the capture function for clean captures (infra/assets/clean-capture.ts). */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FiltersEngine } from '@ghostery/adblocker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCleanCaptureAssets } from '#infra/assets/clean-capture.ts';
import { AD_ENGINE_FILE, isAd } from '#shared/services/capture/ad-blocking.ts';
import { AUTOCONSENT_FILE } from '#shared/services/capture/consent-asset.ts';

let folder: string;
let engine: FiltersEngine;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'easel-clean-'));
  writeCleanCaptureAssets(folder);
  engine = FiltersEngine.deserialize(readFileSync(join(folder, AD_ENGINE_FILE)));
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const page = 'https://news.example.com/article';

describe('clean-capture assets', () => {
  it.each([
    ['an ad image', 'https://pagead2.googlesyndication.com/pagead/imgad?id=1', 'image'],
    ['an ad network script', 'https://ib.adnxs.com/ut/v3/prebid', 'xmlhttprequest'],
  ])('write an engine that blocks %s', (_name, url, resourceType) => {
    expect(isAd(engine, { url, sourceUrl: page, resourceType })).toBe(true);
  });

  it.each([
    ["the page's own script", 'https://news.example.com/app.js', 'script'],
    ['the captured document, whatever its address', 'https://pagead2.googlesyndication.com/pagead/imgad?id=1', 'document'],
  ])('write an engine that lets through %s', (_name, url, resourceType) => {
    expect(isAd(engine, { url, sourceUrl: page, resourceType })).toBe(false);
  });

  it('write an engine that hides AdSense slots', () => {
    const { styles } = engine.getCosmeticsFilters({
      url: page,
      hostname: 'news.example.com',
      domain: 'example.com',
      classes: ['adsbygoogle'],
      getBaseRules: true,
    });
    expect(styles).toContain('ins.adsbygoogle[data-ad-client]');
  });

  it("copy autoconsent's standalone build, rules included", () => {
    const script = readFileSync(join(folder, AUTOCONSENT_FILE), 'utf8');
    expect(script).toContain('autoconsentStandalone');
    expect(script).toContain('onetrust-banner-sdk');
  });
});
