/**
 * Clean captures on the corpus of test/support/clean-pages.ts: the bundled Chromium loads each
 * page through request interception as the capture does, and the PNG is read for the colours of
 * banners and ads.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedConsentAsset } from '#infra/assets/consent-script.ts';
import { prepare } from '#shared/services/capture/clean-capture.ts';
import type { CleanOptions, CleanReport } from '#shared/services/capture/clean-capture.ts';
import { consentRulesFor } from '#shared/services/capture/consent-banners.ts';
import { watchPage } from '#shared/services/capture/settle.ts';
import { launchBrowser } from '../support/browser.ts';
import { AD_COLOUR, AD_HOST, BANNER_COLOUR, CONSENT_PAGES, SITE_HOST, startCleanPages } from '../support/clean-pages.ts';
import type { CleanPages } from '../support/clean-pages.ts';
import { ACCEPTED_COLOUR } from '../support/consent-walls.ts';

let browser: Browser;
let pages: CleanPages;

beforeAll(async () => {
  pages = await startCleanPages();
  browser = await launchBrowser([`--host-resolver-rules=MAP ${AD_HOST} 127.0.0.1, MAP ${SITE_HOST} 127.0.0.1`]);
});

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

/** Pixels of `colour` (±8 per channel) in a PNG. */
async function count(png: Uint8Array, colour: { r: number; g: number; b: number }): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (Math.abs(data[i]! - colour.r) <= 8 && Math.abs(data[i + 1]! - colour.g) <= 8 && Math.abs(data[i + 2]! - colour.b) <= 8) n++;
  }
  return n;
}

/** Pixels that differ by more than 2 in any channel between two PNGs, which must be the same size. */
async function differing(a: Uint8Array, b: Uint8Array): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((png) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  expect([y!.info.width, y!.info.height]).toEqual([x!.info.width, x!.info.height]);
  let n = 0;
  for (let i = 0; i < x!.data.length; i += 3) {
    if ([0, 1, 2].some((c) => Math.abs(x!.data[i + c]! - y!.data[i + c]!) > 2)) n++;
  }
  return n;
}

const OUTPUT = join(import.meta.dirname, '..', '..', 'test-output', 'clean');
/** Kept under test-output/ to be looked at. */
function keep(name: string, png: Uint8Array): void {
  mkdirSync(OUTPUT, { recursive: true });
  writeFileSync(join(OUTPUT, `${name}.png`), png);
}

/**
 * Loads `url` as the capture does (interception, load, a short quiet time, clean-up) and returns
 * the PNG, autoconsent's lifecycle state at the end, what the clean-up reported and what `inspect`
 * found on the page afterwards.
 */
async function captureClean<T = undefined>(
  browserToUse: Browser,
  url: string,
  options: CleanOptions,
  inspect?: (page: Page) => Promise<T>,
): Promise<{ png: Uint8Array; consent: unknown; report: CleanReport; inspected: T | undefined }> {
  const context = await browserToUse.createBrowserContext();
  try {
    const page: Page = await context.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await page.setRequestInterception(true);
    const clean = await prepare(page, options, new URL(url));
    page.on('request', (request) => {
      if (request.isInterceptResolutionHandled()) return;
      const blocked = clean.blocks({ url: request.url(), sourceUrl: request.frame()?.url() || url, resourceType: request.resourceType() });
      void (blocked ? request.abort('blockedbyclient') : request.continue()).catch(() => undefined);
    });
    await page.goto(url, { waitUntil: 'load' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const report = await clean.settle(3_000);
    const png = await page.screenshot({ type: 'png' });
    const consent = await page.evaluate('globalThis.autoconsentStandalone?.instance.state.lifecycle');
    return { png, consent, report, inspected: await inspect?.(page) };
  } finally {
    await context.close();
  }
}

describe('clean captures: consent dialogs', () => {
  it.each(Object.keys(CONSENT_PAGES))('leaves no %s consent dialog in the capture with blockBanners', async (name) => {
    // Act
    const { png } = await captureClean(browser, `${pages.origin}/consent/${name}`, { blockBanners: true });

    // Assess
    expect(await count(png, BANNER_COLOUR)).toBe(0);
  });

  it.each(['onetrust', 'cookiebot', 'didomi', 'usercentrics', 'quantcast'])(
    'opts out of the %s dialog with autoconsent itself, not the fallback',
    async (name) => {
      // Act
      const { consent } = await captureClean(browser, `${pages.origin}/consent/${name}`, { blockBanners: true });

      // Assess
      expect(consent).toBe('done');
    },
  );

  it('shows the dialog without blockBanners', async () => {
    // Act
    const { png } = await captureClean(browser, `${pages.origin}/consent/onetrust`, {});

    // Assess
    expect(await count(png, BANNER_COLOUR)).toBeGreaterThan(1280 * 290);
  });
});

describe('clean captures: what a dialog leaves', () => {
  const leftovers = (name: string) => `${pages.origin}/leftovers/${name}`;

  // The unknown dialogs are refused by their own reject control; the managers' by autoconsent's rules.
  const rule = { lifecycle: 'done', clicked: [] };
  const reject = { lifecycle: expect.any(String), clicked: ['reject'] };
  it.each([
    ['unknown-class', 'opted-out', reject, ['backdrop', 'body overflow']],
    ['unknown-inline', 'opted-out', reject, ['backdrop', 'html overflow', 'body overflow']],
    ['unknown-fixed', 'opted-out', reject, ['backdrop', 'body position']],
    ['onetrust-filter', 'opted-out', rule, ['body overflow']],
    ['stuck-backdrop', 'hidden', { lifecycle: expect.any(String), clicked: [] }, ['backdrop', 'html overflow', 'body overflow']],
    ['hero-consent', 'opted-out', rule, []],
  ])('captures the %s page as the same page without its dialog (%s)', async (name, result, how, cleared) => {
    // Prepare
    const { png: without } = await captureClean(browser, `${leftovers(name)}?without`, {});

    // Act
    const { png, report } = await captureClean(browser, leftovers(name), { blockBanners: true });

    // Assess
    keep(`${name}-clean`, png);
    keep(`${name}-without`, without);
    expect(report).toEqual({ consent: { result, ...how, cleared } });
    expect(await differing(png, without)).toBe(0);
  });

  it.each(['unknown-class', 'unknown-inline', 'unknown-fixed', 'stuck-backdrop'])('leaves the %s page scrollable by the wheel', async (name) => {
    // Act
    const { inspected } = await captureClean(browser, leftovers(name), { blockBanners: true }, async (page) => {
      await page.mouse.move(640, 600);
      await page.mouse.wheel({ deltaY: 600 });
      return page.waitForFunction('scrollY > 0', { timeout: 5_000 }).then(() => page.evaluate('scrollY'));
    });

    // Assess
    expect(inspected).toBeGreaterThan(0);
  });

  it('leaves a page without a dialog as it is, its own tint and scroll lock included', async () => {
    // Prepare
    const { png: plain } = await captureClean(browser, leftovers('fixed-layer'), {});

    // Act
    const { png, report, inspected } = await captureClean(browser, leftovers('fixed-layer'), { blockBanners: true }, (page) =>
      page.evaluate('[getComputedStyle(document.documentElement).overflowY, getComputedStyle(document.body).overflowY]'),
    );

    // Assess
    keep('fixed-layer-clean', png);
    expect(report).toEqual({ consent: { result: 'none', lifecycle: expect.any(String), clicked: [], cleared: [] } });
    expect(inspected).toEqual(['hidden', 'hidden']);
    expect(await differing(png, plain)).toBe(0);
  });
});

describe('clean captures: consent walls', () => {
  const walls = (name: string) => `${pages.origin}/walls/${name}`;
  /** What each wall leaves once gone: its backdrop and scroll lock, and the blur of the two that blur. */
  const left = ['backdrop', 'body overflow'];
  const blurred = [...left, 'blur'];

  it.each([
    // Pay or accept: neither is clicked; the wall is hidden.
    ['pay-en', 'hidden', [], [], left],
    ['pay-de', 'hidden', [], [], blurred],
    ['pay-fr', 'hidden', [], [], left],
    ['pay-es', 'hidden', [], [], left],
    ['pay-close-fr', 'closed', ['close'], ['Fermer'], left],
    // Refusals and necessary-only, whether or not the dialog is a role=dialog.
    ['reject-de', 'opted-out', ['reject'], ['Alle ablehnen'], blurred],
    ['necessary-en', 'opted-out', ['reject'], ['Necessary only'], left],
    ['necessary-fr', 'opted-out', ['reject'], ['Uniquement les cookies nécessaires'], left],
    ['necessary-es', 'opted-out', ['reject'], ['Solo necesarias'], left],
    ['close-en', 'closed', ['close'], ['Close'], left],
    // A refusal or close that does nothing: the wall stays, and is hidden.
    ['reject-stuck-en', 'hidden', ['reject'], ['Reject all'], left],
    ['close-stuck-es', 'hidden', ['close'], ['Cerrar'], left],
    // In an app's fixed shell, only the wall is hidden.
    ['shell-stuck-en', 'hidden', ['reject'], ['Reject all'], left],
  ])('captures the %s wall as the page without it (%s), clicking only what refuses or closes', async (name, result, clicked, said, cleared) => {
    // Prepare
    const { png: without } = await captureClean(browser, `${walls(name)}?without`, {});

    // Act
    const { png, report, inspected } = await captureClean(browser, walls(name), { blockBanners: true }, (page) => page.evaluate('window.consentClicks ?? []'));

    // Assess
    keep(`wall-${name}`, png);
    expect(inspected).toEqual(said);
    expect(report).toEqual({ consent: { result, lifecycle: expect.any(String), clicked, cleared } });
    expect(await count(png, ACCEPTED_COLOUR)).toBe(0);
    expect(await differing(png, without)).toBe(0);
  });

  it.each(['pay-en', 'pay-fr', 'necessary-es', 'close-stuck-es'])('shows the whole %s wall without blockBanners', async (name) => {
    // Act
    const { png } = await captureClean(browser, walls(name), {});

    // Assess: its box, half the 1280 px width and 300 px tall, less its words and buttons.
    expect(await count(png, BANNER_COLOUR)).toBeGreaterThan(640 * 270);
  });

  it("stops a script's click on a control that accepts or subscribes, and lets a person's click through", async () => {
    // Act
    const { inspected } = await captureClean(browser, walls('pay-en'), { blockBanners: true }, async (page) => {
      const scripted = await page.evaluate(`(() => {
        document.querySelector('.wall').style.setProperty('display', 'block', 'important');
        for (const button of document.querySelectorAll('.wall button')) button.click();
        return { clicks: window.consentClicks ?? [], refused: window.autoconsentStandalone.refused };
      })()`);
      await page.click('.wall button');
      return { scripted, person: await page.evaluate('window.consentClicks') };
    });

    // Assess
    expect(inspected).toEqual({ scripted: { clicks: [], refused: ['Accept and continue', 'Subscribe'] }, person: ['Accept and continue'] });
  });
});

describe('clean captures: consent rules', () => {
  const names = (url: string) => (JSON.parse(consentRulesFor(cachedConsentAsset().rules, new URL(url))) as { r: [number, string][] }).r.map((rule) => rule[1]);

  it.each([
    ["its own site's rules", 'https://www.reddit.com/r/all', ['reddit.com'], ['twitter']],
    ['them over http and without www too', 'http://reddit.com/', ['reddit.com'], ['twitter']],
    ["no site's rules on a site without any", 'http://127.0.0.1:8080/', [], ['reddit.com', 'twitter']],
  ])('hands a page the generic rules and %s', (_case, url, present, absent) => {
    // Act
    const rules = names(url);

    // Assess
    expect(rules).toEqual(expect.arrayContaining(['didomi', 'quantcast', 'usercentrics-api', 'privacymanager.io', ...present]));
    for (const name of absent) expect(rules).not.toContain(name);
  });
});

describe('clean captures: ads', () => {
  it('drops the ad host request and hides the ad slot with blockAds', async () => {
    // Prepare
    const before = pages.adHits.length;

    // Act
    const { png } = await captureClean(browser, `http://${SITE_HOST}:${pages.port}/ads`, { blockAds: true });

    // Assess
    expect(pages.adHits.length).toBe(before);
    expect(await count(png, AD_COLOUR)).toBe(0);
  });

  it('shows both ads without blockAds', async () => {
    // Act
    const { png } = await captureClean(browser, `http://${SITE_HOST}:${pages.port}/ads`, {});

    // Assess: the served image and the slot, 300×250 each.
    expect(await count(png, AD_COLOUR)).toBe(2 * 300 * 250);
  });
});

describe('clean captures: settling', () => {
  it("counts none of autoconsent's timers as the page's work while it searches a page without a dialog", async () => {
    // Prepare
    const url = `${pages.origin}/leftovers/fixed-layer?without`;
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await watchPage(page);
      await prepare(page, { blockBanners: true }, new URL(url));

      // Act: read the watcher until autoconsent, finding nothing, has waited once and searched again.
      await page.goto(url, { waitUntil: 'load' });
      const readings: { timers: number; attempts: number }[] = [];
      const until = performance.now() + 30_000;
      while (performance.now() < until && (readings.at(-1)?.attempts ?? 0) < 2) {
        readings.push(
          (await page.evaluate('({ timers: __easelActivity().timers, attempts: autoconsentStandalone?.instance.state.findCmpAttempts ?? 0 })')) as {
            timers: number;
            attempts: number;
          },
        );
      }

      // Assess
      expect(readings.at(-1)?.attempts).toBe(2);
      expect(Math.max(...readings.map((reading) => reading.timers))).toBe(0);
    } finally {
      await context.close();
    }
  });
});
