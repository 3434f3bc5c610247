/**
 * The editor at / in a real browser — the bundled Chromium with web security on — against the
 * local runtime and local stand-ins only: target pages on 127.0.0.1, the tweet syndication API,
 * and the media hosts over TLS through the test-only host mapping.
 *
 * One runtime and one browser serve the whole file; each test gets a fresh browser context
 * (cookies, storage and downloads of its own). The page is opened from the runtime's own origin
 * (same-origin API) or from a second origin in front of it (cross-origin API, allowed by
 * EDITOR_ORIGINS). The rate-limit countdown is in source-messages.test.ts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort, saveScreenshot, startOriginProxy, type OriginProxy } from '../support/browser.ts';
import { startTargetPages, type TargetPages } from '../support/target-pages.ts';
import {
  countColour,
  expectColour,
  exportDownload,
  pixelOf,
  previewPixel,
  readout,
  shiftTotal,
  SLOW,
  text,
  violations,
  waitForStatus,
  writeSmallPng,
} from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';
import { useOwnerSession } from './support/signed-in.ts';
import { AVATAR_RGB, AVATAR_URL, PHOTO_RGB, PHOTO_URL, startTweetStandIns, TWEET_ID, type TweetStandIns } from './support/tweet-stand-ins.ts';

/** Layout constants the tests recompute sizes from (editor/src/model/presets.ts, tweet-card.ts). */
const CARD_WIDTH = 550;
/** The Auto scale: a file's or a desktop capture's own pixels; a phone capture's and a tweet card's are 2×. */
const DEFAULTS = { padding: 64, scale: 1, phoneScale: 2, cardScale: 2 };

let pages: TargetPages;
let tweets: TweetStandIns;
let crossOrigin: OriginProxy;
let port = 0;
let smallPng = '';
const {
  runtime,
  browser,
  workdir,
  open: openEditor,
  track,
} = useEditorSuite({
  name: 'editor',
  before: async () => {
    pages = await startTargetPages();
    tweets = await startTweetStandIns();
    // The page's API base must be known before the runtime starts: pick its port first.
    port = await freePort();
    const api = `http://127.0.0.1:${port}`;
    crossOrigin = await startOriginProxy(api, ['/', '/editor/']);
    Object.assign(process.env, tweets.env, {
      UNSAFE_TEST_LOOPBACK_PORTS: `${pages.port},${tweets.media.server.port}`,
      EDITOR_API_URL: api,
      EDITOR_ORIGINS: crossOrigin.origin,
      // Not the default, so the page is seen to take it from the server.
      CAPTURE_TIMEOUT_MS: '20000',
    });
    return async () => {
      await crossOrigin.close();
      await tweets.close();
      await pages.close();
    };
  },
  runtimeOptions: () => ({ port }),
});

const owner = useOwnerSession(runtime, { email: 'ada@example.com', name: 'Ada Lovelace', organization: 'Analytical' });

beforeAll(async () => {
  smallPng = await writeSmallPng(workdir());
});

async function loadTweet(page: Page, reference: string): Promise<void> {
  await page.click('#tab-tweet');
  await page.type('#tweet-ref', reference);
  await page.click('#tweet-submit');
  await waitForStatus(page, '#tweet-status', 'Loaded the tweet', '#source-error');
}

describe('the e2e browser', SLOW, () => {
  it('runs without --disable-web-security and --allow-running-insecure-content, and enforces the same-origin policy', async () => {
    // Prepare: a page on one origin; localhost is another origin of the same server, which sends no CORS headers
    const context = await browser().createBrowserContext();
    track(context);
    const page = await context.newPage();
    await page.goto(`${pages.origin}/plain`);
    const other = `http://localhost:${pages.port}`;

    // Act
    const outcome = await page.evaluate(async (otherOrigin) => {
      const read = await fetch(`${otherOrigin}/data`).then(
        () => 'read',
        (error: Error) => error.name,
      );
      const frame = document.createElement('iframe');
      frame.src = `${otherOrigin}/plain`;
      await new Promise((resolve) => {
        frame.onload = resolve;
        document.body.append(frame);
      });
      let dom: string;
      try {
        dom = frame.contentWindow!.document.title;
      } catch (error) {
        dom = (error as Error).name;
      }
      return { read, dom };
    }, other);

    // Assess
    const args = browser().process()?.spawnargs ?? [];
    expect(args.length).toBeGreaterThan(0);
    expect(args).not.toContain('--disable-web-security');
    expect(args).not.toContain('--allow-running-insecure-content');
    expect(outcome).toEqual({ read: 'TypeError', dom: 'SecurityError' });
  });

  it('keeps a canvas exportable after drawing media through the proxy, and taints it with a cross-origin image sent without CORS', async () => {
    // Prepare
    const context = await browser().createBrowserContext();
    track(context);
    const page = await context.newPage();
    await page.goto(`${pages.origin}/plain`);

    // Act
    const outcome = await page.evaluate(
      async (proxied, noCors) => {
        const load = (src: string, cors: boolean) =>
          new Promise<HTMLImageElement>((resolve, reject) => {
            const image = new Image();
            if (cors) image.crossOrigin = 'anonymous';
            image.onload = () => resolve(image);
            image.onerror = () => reject(new Error(`failed ${src}`));
            image.src = src;
          });
        const exportable = async (image: HTMLImageElement) => {
          const canvas = document.createElement('canvas');
          canvas.width = canvas.height = 8;
          canvas.getContext('2d')!.drawImage(image, 0, 0, 8, 8);
          return new Promise<string>((resolve) => {
            try {
              canvas.toBlob((blob) => resolve(blob && blob.size > 0 ? 'blob' : 'null'));
            } catch (error) {
              resolve((error as Error).name);
            }
          });
        };
        const viaProxy = await exportable(await load(proxied, true));
        const withoutCors = await exportable(await load(noCors, false));
        const corsRefused = await load(noCors, true).then(
          () => 'loaded',
          () => 'refused',
        );
        return { viaProxy, withoutCors, corsRefused };
      },
      `${runtime().url}/api/image-proxy?url=${encodeURIComponent(PHOTO_URL)}`,
      `http://localhost:${pages.port}/pixel.png?no-cors`,
    );

    // Assess
    expect(outcome).toEqual({ viaProxy: 'blob', withoutCors: 'SecurityError', corsRefused: 'refused' });
  });
});

describe('the editor', SLOW, () => {
  it.each([
    ['at desktop width', { width: 1440, height: 900 }],
    ['on a 375 px screen', { width: 375, height: 812 }],
  ])('loads without moving its layout %s, the sign-in check included', async (_case, viewport) => {
    // Prepare + Act: open the page and let the script fill its controls and finish the sign-in check
    const { page } = await openEditor(runtime().url, viewport);
    await page.waitForSelector('#sign-in-button:not([hidden])');
    // Layout-shift entries are delivered after the frame that made them.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

    // Assess: every shift since the first byte
    expect(await shiftTotal(page)).toBe(0);
  });

  it('captures a local page as a phone in dark mode with progress shown, without moving the layout, and draws it', async () => {
    // Prepare: a page that turns green only after a fetch, so the capture takes a moment
    const { page } = await openEditor(runtime().url);
    await page.evaluate(() => {
      const seen = window as unknown as { sawProgress: boolean };
      seen.sawProgress = false;
      const progress = document.getElementById('capture-progress')!;
      new MutationObserver(() => {
        if (!progress.hidden) seen.sawProgress = true;
      }).observe(progress, { attributes: true });
    });
    await page.evaluate(() => {
      const seen = window as unknown as { timerTexts: string[] };
      seen.timerTexts = [];
      const timer = document.getElementById('capture-timer')!;
      new MutationObserver(() => seen.timerTexts.push(timer.textContent ?? '')).observe(timer, { childList: true, characterData: true, subtree: true });
    });
    const shiftsBefore = await shiftTotal(page);
    // As links are shared: long, with tracking parameters (the stand-in ignores them).
    const url = `${pages.origin}/wait/xhr?utm_source=newsletter&utm_medium=email&utm_campaign=launch-week`;
    await page.type('#capture-url', url);
    await page.click('input[name="device"][value="mobile"]');
    await page.click('input[name="scheme"][value="dark"]');
    await page.click('#capture-refresh');
    const sent = page.waitForRequest((request) => request.url().endsWith('/api/screenshot') && request.method() === 'POST');

    // Act
    await page.click('#capture-submit');
    const status = await waitForStatus(page, '#capture-status', 'Captured', '#source-error');

    // Assess: the options reached the API; a 750×1334 phone capture lays out at 375×667
    expect(JSON.parse((await sent).postData() ?? '')).toEqual({
      url,
      deviceType: 'mobile',
      colorScheme: 'dark',
      forceRefresh: true,
      blockBanners: true,
      blockAds: true,
    });
    expect(status.replace(/\d+ captures left/, 'N captures left')).toBe(`Captured ${new URL(url).host} (mobile, dark). N captures left this minute.`);
    expect(await page.evaluate(() => (window as unknown as { sawProgress: boolean }).sawProgress)).toBe(true);
    // The server's time-out (CAPTURE_TIMEOUT_MS above), not a figure built into the page
    const timerTexts = await page.evaluate(() => (window as unknown as { timerTexts: string[] }).timerTexts);
    expect(timerTexts.filter((line) => line !== '')).toContainEqual(expect.stringMatching(/up to 20 s\.$/));
    expect(timerTexts.join(' ')).not.toContain('up to 15 s');
    expect(await page.$eval('#capture-progress', (element) => (element as HTMLElement).hidden)).toBe(true);
    expect(await readout(page)).toEqual({
      width: (375 + 2 * DEFAULTS.padding) * DEFAULTS.phoneScale,
      height: (667 + 2 * DEFAULTS.padding) * DEFAULTS.phoneScale,
    });
    // The capture fills the middle of the preview, green as the page finally was.
    const size = await page.$eval('#preview', (canvas) => ({ width: (canvas as HTMLCanvasElement).width, height: (canvas as HTMLCanvasElement).height }));
    expectColour(await previewPixel(page, Math.round(size.width / 2), Math.round(size.height / 2)), [0, 160, 0]);
    expect((await shiftTotal(page)) - shiftsBefore).toBe(0);
    expect(await violations(page)).toEqual([]);
    await saveScreenshot(page, 'editor-capture-desktop');
    // Assess: on a phone the whole status line still shows
    await page.setViewport({ width: 375, height: 812 });
    await page.$eval('#capture-status', (element) => element.scrollIntoView({ block: 'center' }));
    // The line clamps what does not fit: compare with the height the text needs unclamped.
    const clipped = await page.$eval('#capture-status', (element) => {
      const free = element.cloneNode(true) as HTMLElement;
      Object.assign(free.style, { height: 'auto', display: 'block', webkitLineClamp: 'none', position: 'absolute', width: `${element.clientWidth}px` });
      element.after(free);
      const needed = free.getBoundingClientRect().height;
      free.remove();
      return needed > element.clientHeight + 1;
    });
    await saveScreenshot(page, 'editor-capture-375');
    expect(clipped).toBe(false);
  });

  it("says in words for people why a capture was refused, with the envelope's message, hint and reference under Details", async () => {
    // Prepare: a loopback port the runtime was not opened to
    const { page } = await openEditor(runtime().url);
    await page.type('#capture-url', 'http://127.0.0.1:9/');
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/screenshot'));

    // Act
    await page.click('#capture-submit');
    const envelope = (await (await answer).json()) as { code: string; message: string; hint: string; documentation: string };
    await page.waitForSelector('#source-error .problem-api');

    // Assess
    expect(envelope.code).toBe('invalid_url');
    expect(await text(page, '#source-error .problem-message')).toBe('That address is on a private or local network, which Easel does not capture.');
    expect(await text(page, '#source-error .problem-api')).toContain(`${envelope.message}. ${envelope.hint}`);
    expect(await page.$eval('#source-error .problem-api a', (link) => (link as HTMLAnchorElement).href)).toBe(envelope.documentation);
    expect(await page.$eval('#source-error', (element) => element.getAttribute('role'))).toBe('alert');
    expect(await text(page, '#capture-status')).toBe('The capture failed.');
  });

  it('sends the chosen capture options with Clean page on by default, and draws only the element the selector names', async () => {
    // Prepare: the options page has a 320×180 #box below the fold
    const { page } = await openEditor(runtime().url);
    const cleanByDefault = await page.$eval('#capture-clean', (box) => (box as HTMLInputElement).checked);
    const url = `${pages.origin}/options`;
    await page.type('#capture-url', url);
    await page.click('#capture-full-page');
    await page.click('#capture-advanced summary');
    await page.type('#capture-selector', '#box');
    await page.type('#capture-wait-for', 'header');
    await page.type('#capture-delay', '50');
    await page.type('#capture-hide', '.promo\n:is(img, #feed), header');
    await saveScreenshot(page, 'editor-capture-advanced-desktop');
    const targets = await page.$$eval('#capture-full-page, #capture-clean, #capture-advanced summary', (elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return box.width >= 24 && box.height >= 24;
      }),
    );
    const sent = page.waitForRequest((request) => request.url().endsWith('/api/screenshot') && request.method() === 'POST');

    // Act
    await page.click('#capture-submit');
    await waitForStatus(page, '#capture-status', 'Captured', '#source-error');

    // Assess: only the options away from their defaults, the box at its own size
    expect(cleanByDefault).toBe(true);
    expect(JSON.parse((await sent).postData() ?? '')).toEqual({
      url,
      deviceType: 'desktop',
      colorScheme: 'light',
      forceRefresh: false,
      fullPage: true,
      selector: '#box',
      waitForSelector: 'header',
      delay: 50,
      hideSelectors: ['.promo', ':is(img, #feed)', 'header'],
      blockBanners: true,
      blockAds: true,
    });
    expect(await readout(page)).toEqual({ width: (320 + 2 * DEFAULTS.padding) * DEFAULTS.scale, height: (180 + 2 * DEFAULTS.padding) * DEFAULTS.scale });
    expect(targets).toEqual([true, true, true]);
    expect(await violations(page)).toEqual([]);
  });

  it('says where a full page too tall for one capture was cut', async () => {
    // Prepare
    const { page } = await openEditor(runtime().url);
    await page.type('#capture-url', `${pages.origin}/tall?height=20000`);
    await page.click('#capture-full-page');

    // Act
    await page.click('#capture-submit');
    const status = await waitForStatus(page, '#capture-status', 'Captured', '#source-error');
    await saveScreenshot(page, 'editor-capture-cut');

    // Assess: desktop is captured at scale 1, so the cut is at the image's height limit
    expect(status).toContain('Cut at 16,384 px, the limit.');
    expect(await readout(page)).toEqual({ width: (1920 + 2 * DEFAULTS.padding) * DEFAULTS.scale, height: (16_384 + 2 * DEFAULTS.padding) * DEFAULTS.scale });
  });

  it("sends no clean-up when Clean page is cleared, and says so when the selector matches nothing, with the 404 envelope's hint under Details", async () => {
    // Prepare
    const { page } = await openEditor(runtime().url);
    await page.type('#capture-url', `${pages.origin}/plain`);
    await page.click('#capture-clean');
    await page.click('#capture-advanced summary');
    await page.type('#capture-selector', '#nothing-here');
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/screenshot'));

    // Act
    await page.click('#capture-submit');
    const response = await answer;
    const envelope = (await response.json()) as { code: string; message: string; hint: string };
    await page.waitForSelector('#source-error .problem-api');

    // Assess
    expect(JSON.parse(response.request().postData() ?? '')).toEqual({
      url: `${pages.origin}/plain`,
      deviceType: 'desktop',
      colorScheme: 'light',
      forceRefresh: false,
      selector: '#nothing-here',
    });
    expect(response.status()).toBe(404);
    expect(envelope.hint).toContain('#nothing-here');
    expect(await text(page, '#source-error .problem-message')).toBe('Nothing on the page matches the element selector.');
    expect(await text(page, '#source-error .problem-api')).toContain(envelope.hint);
    expect(await text(page, '#capture-status')).toBe('The capture failed.');
  });

  it('refuses more than 20 hide selectors before sending, with the field in view and focused', async () => {
    // Prepare
    const { page } = await openEditor(runtime().url);
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/screenshot')) requests.push(request.url());
    });
    await page.type('#capture-url', `${pages.origin}/plain`);
    await page.click('#capture-advanced summary');
    await page.$eval('#capture-hide', (area) => {
      (area as HTMLTextAreaElement).value = Array.from({ length: 21 }, (_, index) => `.ad-${index}`).join(', ');
    });
    await page.click('#capture-advanced summary');

    // Act
    await page.click('#capture-submit');
    await page.waitForSelector('#source-error .problem-message');

    // Assess: the closed disclosure opened again on the field
    expect(await text(page, '#source-error .problem-message')).toBe('At most 20 selectors can be hidden; 21 are listed.');
    expect(
      await page.evaluate(() => ({ focused: document.activeElement?.id, open: (document.getElementById('capture-advanced') as HTMLDetailsElement).open })),
    ).toEqual({ focused: 'capture-hide', open: true });
    expect(requests).toEqual([]);
  });

  it('loads a tweet from another origin, composes it with a gradient and a browser frame, and exports a WebP of the composed size', async () => {
    // Prepare: the page comes from the second origin; the API, tweet and media from the runtime's
    const { page, downloads } = await openEditor(crossOrigin.origin);
    tweets.media.server.requests.length = 0;
    await loadTweet(page, `https://x.com/SamuelSusla/status/${TWEET_ID}?s=20`);
    await page.click('input[name="gradient"][value="ocean"]');
    await page.select('#frame', 'light');
    await page.select('#format', 'webp');
    await page.select('#quality', 'medium');

    // Act
    const webp = await exportDownload(page, downloads);
    const name = await page.$eval('#export-result', (element) => (element as HTMLElement).dataset.name!);

    // Assess: the media came through the mapped hosts, and the preview is still exportable
    expect(tweets.media.server.requests.map((request) => `https://${request.headers.host}${request.path}`).sort()).toEqual([AVATAR_URL, PHOTO_URL].sort());
    expect(
      await page.$eval('#preview', (canvas) => new Promise((resolve) => (canvas as HTMLCanvasElement).toBlob((blob) => resolve(blob?.size ?? 0)))),
    ).toBeGreaterThan(0);
    // Assess: the file decodes to the size the editor composed
    const composed = await readout(page);
    const metadata = await sharp(webp).metadata();
    expect(name).toBe('easel.webp');
    expect(metadata.format).toBe('webp');
    expect({ width: metadata.width, height: metadata.height }).toEqual(composed);
    expect(composed.width).toBe((CARD_WIDTH + 2 * DEFAULTS.padding) * DEFAULTS.cardScale);
    expect(await page.$eval('#export-result', (element) => Number((element as HTMLElement).dataset.bytes))).toBe(webp.length);
    expect(await text(page, '#export-result')).toContain(`${composed.width} × ${composed.height} px`);
    // Assess: ocean gradient in the corner, the light frame's bar, the avatar and the photo inside
    expectColour(await pixelOf(webp, 2, 2), [33, 147, 176], 16);
    expectColour(await pixelOf(webp, (DEFAULTS.padding + 100) * DEFAULTS.cardScale, (DEFAULTS.padding + 18) * DEFAULTS.cardScale), [235, 235, 239], 8);
    expect(await countColour(webp, AVATAR_RGB)).toBeGreaterThan(40 * 40);
    expect(await countColour(webp, PHOTO_RGB)).toBeGreaterThan(400 * 150);
    expect(await violations(page)).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, 'editor-tweet-desktop');
  });

  it('takes an image from the file picker, and a copied PNG pasted back', async () => {
    // Prepare
    const { page } = await openEditor(runtime().url);
    await page.click('#tab-image');
    const input = await page.$('input#image-file');

    // Act: open a 300×200 file, copy the composition as PNG, paste it
    await input!.uploadFile(smallPng);
    const opened = await waitForStatus(page, '#image-status', 'Opened', '#source-error');
    const first = await readout(page);
    await page.click('#copy-button');
    await waitForStatus(page, '#export-status', 'Copied', '#export-error');
    const copied = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const bitmap = await createImageBitmap(await item!.getType('image/png'));
      return { width: bitmap.width, height: bitmap.height };
    });
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyV');
    await page.keyboard.up('Control');
    const pasted = await waitForStatus(page, '#image-status', 'Pasted', '#source-error');

    // Assess
    expect(opened).toBe('Opened small.png (300 × 200 px).');
    expect(first).toEqual({ width: (300 + 2 * DEFAULTS.padding) * DEFAULTS.scale, height: (200 + 2 * DEFAULTS.padding) * DEFAULTS.scale });
    expect(copied).toEqual(first);
    expect(pasted).toBe(`Pasted image.png (${first.width} × ${first.height} px).`);
    expect(await readout(page)).toEqual({
      width: (first.width + 2 * DEFAULTS.padding) * DEFAULTS.scale,
      height: (first.height + 2 * DEFAULTS.padding) * DEFAULTS.scale,
    });
  });

  it('takes an image dropped on the page', async () => {
    // Prepare
    const { page } = await openEditor(runtime().url);
    const box = (await (await page.$('#stage'))!.boundingBox())!;
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const data = { items: [], files: [smallPng], dragOperationsMask: 1 };

    // Act
    await page.mouse.dragEnter(point, data);
    await page.mouse.dragOver(point, data);
    const hint = await page.$eval('#stage-drop', (element) => (element as HTMLElement).hidden);
    await page.mouse.drop(point, data);
    const status = await waitForStatus(page, '#image-status', 'Dropped', '#source-error');

    // Assess
    expect(hint).toBe(false);
    expect(status).toBe('Dropped small.png (300 × 200 px).');
    expect(await page.$eval('#stage-drop', (element) => (element as HTMLElement).hidden)).toBe(true);
    expect(await page.$eval('[role="tab"][aria-selected="true"]', (tab) => tab.id)).toBe('tab-image');
  });

  it('keeps the settings across a reload and shares them through the copied link', async () => {
    // Prepare
    const { page } = await openEditor(runtime().url);
    await page.click('input[name="gradient"][value="grape"]');
    await page.select('#frame', 'dark');
    await page.select('#ratio', '1x1');
    await page.click('input[name="scale"][value="3"]');
    await page.focus('#padding');
    await page.keyboard.press('ArrowRight');
    const chosen = { gradient: 'grape', frame: 'dark', ratio: '1x1', scale: '3', padding: String(DEFAULTS.padding + 8) };
    const shown = () =>
      page.evaluate(() => ({
        gradient: document.querySelector<HTMLInputElement>('input[name="gradient"]:checked')?.value,
        frame: document.querySelector<HTMLSelectElement>('#frame')!.value,
        ratio: document.querySelector<HTMLSelectElement>('#ratio')!.value,
        scale: document.querySelector<HTMLInputElement>('input[name="scale"]:checked')?.value,
        padding: document.querySelector<HTMLInputElement>('#padding')!.value,
      }));

    // Act
    await page.click('#copy-link');
    await waitForStatus(page, '#link-status', 'Link copied', '#export-error');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    await page.goto(`${runtime().url}/`);
    await page.waitForSelector('html[data-ready="true"]');
    const afterReload = await shown();
    const other = await openEditor(runtime().url);
    await other.page.goto(link);
    await other.page.waitForSelector('html[data-ready="true"]');
    await other.page.reload();
    await other.page.waitForSelector('html[data-ready="true"]');

    // Assess: reloaded from local storage; the link carries them to a browser that never saw them
    expect(afterReload).toEqual(chosen);
    expect(new URL(link).hash).toContain('g=grape');
    expect(
      await other.page.evaluate(() => ({
        gradient: document.querySelector<HTMLInputElement>('input[name="gradient"]:checked')?.value,
        frame: document.querySelector<HTMLSelectElement>('#frame')!.value,
        ratio: document.querySelector<HTMLSelectElement>('#ratio')!.value,
        scale: document.querySelector<HTMLInputElement>('input[name="scale"]:checked')?.value,
        padding: document.querySelector<HTMLInputElement>('#padding')!.value,
      })),
    ).toEqual(chosen);
  });

  it('asks no API key: Save goes through the signed-in session, and the page offers to sign in', async () => {
    // Prepare
    const { page } = await openEditor(runtime().url);
    await page.click('#tab-image');
    await (await page.$('input#image-file'))!.uploadFile(smallPng);
    await waitForStatus(page, '#image-status', 'Opened', '#source-error');

    // Act
    await page.click('#save-button');

    // Assess: no key field anywhere; the sign-in dialog instead
    expect(await page.$$('input[type="password"], #api-key')).toEqual([]);
    expect(await page.$eval('#sign-in-dialog', (dialog) => (dialog as HTMLDialogElement).open)).toBe(true);
    expect(await text(page, '#save-status')).toBe('Sign in to save.');
  });

  it('saves from another origin with the session cookie, as EDITOR_ORIGINS allows', async () => {
    // Prepare: signed in on the API's host; the page comes from the second origin of the same site
    const downloadsContext = await openEditor(crossOrigin.origin);
    await owner.signIn(downloadsContext.context);
    const { page } = downloadsContext;
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    // The cookie is HttpOnly: the page asks the API who it signs in, on open.
    await page.waitForFunction(() => document.getElementById('account-label')?.textContent === 'Ada Lovelace · Analytical');
    await page.click('#tab-tweet');
    await page.click('input[name="card-theme"][value="dark"]');
    await loadTweet(page, TWEET_ID);

    // Act
    await page.click('#save-button');
    await waitForStatus(page, '#save-status', 'Saved', '#save-error');
    const href = await page.$eval('#saved-link', (link) => (link as HTMLAnchorElement).href);
    const download = await fetch(href);

    // Assess
    expect(await text(page, '#save-status')).toBe('Saved to Analytical.');
    expect(await text(page, '#auth-status')).toBe('Saves to Analytical as Ada Lovelace.');
    expect(download.status).toBe(200);
    const png = Buffer.from(await download.arrayBuffer());
    expect((await sharp(png).metadata()).format).toBe('png');
    // The dark card: a large black area around the text
    expect(await countColour(png, [0, 0, 0], 4)).toBeGreaterThan(CARD_WIDTH * 100);
    expect(await violations(page)).toEqual([]);
    // Assess: the organization's saved assets list it, with a working link
    await page.waitForSelector('#asset-list li a');
    expect(await page.$eval('#asset-list li', (item) => (item as HTMLElement).dataset.assetId)).toBe(
      await page.$eval('#save-result', (element) => (element as HTMLElement).dataset.assetId),
    );
  });

  it('labels every control, works from the keyboard with a visible focus, and fits a 375 px screen', async () => {
    // Prepare
    const { page } = await openEditor(runtime().url, { width: 375, height: 812 });

    // Act: keyboard only — skip link, tabs by arrow key, tweet by Enter
    await page.keyboard.press('Tab');
    const skip = await page.evaluate(() => ({ id: document.activeElement?.className, outline: getComputedStyle(document.activeElement!).outlineStyle }));
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const firstTab = await page.evaluate(() => document.activeElement?.id);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Tab');
    const field = await page.evaluate(() => ({
      id: document.activeElement?.id,
      outline: getComputedStyle(document.activeElement!).outlineStyle,
      width: getComputedStyle(document.activeElement!).outlineWidth,
    }));
    await page.keyboard.type(TWEET_ID);
    await page.keyboard.press('Enter');
    await waitForStatus(page, '#tweet-status', 'Loaded the tweet', '#source-error');
    // On through the controls: none may end up hidden behind the sticky preview.
    const hidden: string[] = [];
    for (let step = 0; step < 30; step += 1) {
      await page.keyboard.press('Tab');
      const covered = await page.evaluate(() => {
        const focused = document.activeElement as HTMLElement;
        // The preview's own tools scroll with it, so it cannot cover them.
        if (focused === document.body || focused.closest('.stage-column')) return '';
        // A radio button is drawn by the span after it.
        const box = (focused.matches('input[type="radio"]') ? (focused.nextElementSibling ?? focused) : focused).getBoundingClientRect();
        const stage = document.querySelector('.stage-column')!.getBoundingClientRect();
        return box.top < stage.bottom - 1 && box.bottom > stage.top + 1
          ? focused.id || `${focused.getAttribute('name')}=${(focused as HTMLInputElement).value}`
          : '';
      });
      if (covered) hidden.push(covered);
    }

    // Assess: every form control and button has an accessible name
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('input, select, textarea, button')]
        .filter((control) => {
          const labelled = (control as HTMLInputElement).labels?.length || control.getAttribute('aria-label') || control.getAttribute('aria-labelledby');
          const named = control.tagName === 'BUTTON' && (control.textContent ?? '').trim() !== '';
          return !labelled && !named;
        })
        .map((control) => control.id || control.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);
    expect(hidden).toEqual([]);
    expect(skip).toEqual({ id: 'skip-link', outline: 'solid' });
    expect(firstTab).toBe('tab-capture');
    expect(field).toEqual({ id: 'tweet-ref', outline: 'solid', width: '3px' });
    // Assess: nothing wider than the screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    const overflowing = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('input, select, button, canvas, .panel')]
        .filter((element) => element.offsetParent !== null)
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return box.left < 0 || box.right > 375;
        })
        .map((element) => element.id || element.className),
    );
    expect(overflowing).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, 'editor-tweet-375');
    await page.$eval('#compose-heading', (heading) => heading.scrollIntoView());
    await saveScreenshot(page, 'editor-compose-375');
  });

  it('loads anonymously without an error, fits Export on a laptop screen, and handles files, tap targets and a quick reload', async () => {
    // Prepare: an anonymous visit at 1440×900
    const meRequests: string[] = [];
    const { page, downloads, consoleErrors } = await openEditor(runtime().url);
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/me')) meRequests.push(request.url());
    });
    const notes = join(workdir(), 'notes.txt');
    await writeFile(notes, 'not an image');
    const box = (selector: string) =>
      page.$eval(selector, (element) => {
        const rect = element.getBoundingClientRect();
        return { top: rect.top, width: rect.width, height: rect.height };
      });
    const disabled = () =>
      page.$$eval('#export-button, #copy-button, #save-button', (buttons) => buttons.map((button) => (button as HTMLButtonElement).disabled));

    // Assess: no failed sign-in probe on load (the session probe answers signedIn false); nothing to export or save yet
    await page.waitForSelector('#sign-in-button:not([hidden])');
    expect(await disabled()).toEqual([true, true, true]);
    // Assess: the Export panel starts within the first screen, without scrolling past Compose
    expect((await box('#export-heading')).top).toBeLessThan(900);
    expect((await box('#capture-refresh')).width).toBeGreaterThanOrEqual(24);
    expect((await box('#capture-refresh')).height).toBeGreaterThanOrEqual(24);
    await saveScreenshot(page, 'editor-empty-desktop');

    // Act: reach the file picker from the keyboard
    await page.click('#tab-image');
    await page.keyboard.press('Tab');
    const picker = await page.evaluate(() => ({
      focused: document.activeElement?.id,
      outline: getComputedStyle(document.getElementById('image-file-button')!).outlineStyle,
      input: document.getElementById('image-file')!.getBoundingClientRect().width,
    }));
    const button = await box('#image-file-button');

    // Act: open an image, then a file that is not one
    const input = await page.$('input#image-file');
    await input!.uploadFile(smallPng);
    await waitForStatus(page, '#image-status', 'Opened small.png', '#source-error');
    const enabled = await disabled();
    await input!.uploadFile(notes);
    await page.waitForSelector('#source-error .problem-message');

    // Assess: a styled button the keyboard reaches; the status no longer names the image before
    expect(picker).toEqual({ focused: 'image-file', outline: 'solid', input: 1 });
    expect(button.height).toBeGreaterThanOrEqual(24);
    expect(button.width).toBeGreaterThanOrEqual(24);
    expect(enabled).toEqual([false, false, false]);
    expect(await text(page, '#image-status')).toBe('Could not use notes.txt.');
    expect(await text(page, '#source-error .problem-message')).toBe('notes.txt is not a PNG, JPEG, WebP or GIF image.');

    // Act: export the image in a light window frame
    await page.select('#frame', 'light');
    const png = await exportDownload(page, downloads);

    // Assess: a file has no address, so the frame's bar has no address pill (its middle is the bar's colour)
    const bar = 36;
    expectColour(await pixelOf(png, (DEFAULTS.padding + 150) * DEFAULTS.scale, (DEFAULTS.padding + bar / 4) * DEFAULTS.scale), [235, 235, 239], 6);
    const again = await box('#export-result a');
    expect(again.height).toBeGreaterThanOrEqual(24);
    expect(again.width).toBeGreaterThanOrEqual(24);

    // Act: change a setting and reload at once, well within the address's debounce
    await page.focus('#padding');
    await page.keyboard.press('ArrowRight');
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');

    // Assess
    expect(await page.$eval('#padding', (slider) => (slider as HTMLInputElement).value)).toBe(String(DEFAULTS.padding + 8));
    expect(meRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(await violations(page)).toEqual([]);
  });
});
