/**
 * The Advanced capture options in the real browser against the local runtime: a page behind a
 * login captured with a cookie that the editor keeps in memory only, a click before the picture,
 * viewport presets and their bounds, and a refusal in words naming the field.
 */
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser.ts';
import { waitFor } from '../support/expectations.ts';
import { expectColour, previewPixel, readout, SLOW, text, waitForStatus } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';
import { SESSION_SECRET, SIGNED_IN_RGB, SIGNED_OUT_RGB, startLoginPages } from './support/login-pages.ts';

/** The Auto scale and the default padding (editor/src/model/presets.ts, settings.ts). */
const PADDING = 64;

const { runtime, open, site } = useEditorSuite({
  name: 'advanced',
  site: startLoginPages,
  // Room for a capture on a machine busy with other suites' browsers.
  env: { CAPTURE_TIMEOUT_MS: '25000' },
});

/** Sends the form and waits for the picture, failing with the page's problem if one shows. */
async function capture(page: Page, path: string): Promise<Record<string, unknown>> {
  await page.$eval('#capture-url', (input) => ((input as HTMLInputElement).value = ''));
  await page.type('#capture-url', `${site().origin}${path}`);
  const sent = page.waitForRequest((request) => request.url().endsWith('/api/screenshot') && request.method() === 'POST');
  // The first capture of a runtime starts its browser: on a loaded machine, longer than the status wait alone allows.
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/screenshot'), SLOW);
  await page.click('#capture-submit');
  const body = JSON.parse((await sent).postData() ?? '{}') as Record<string, unknown>;
  await answered;
  await waitForStatus(page, '#capture-status', 'Captured', '#source-error');
  return body;
}

async function centre(page: Page): Promise<number[]> {
  const size = await page.$eval('#preview', (canvas) => ({ width: (canvas as HTMLCanvasElement).width, height: (canvas as HTMLCanvasElement).height }));
  return previewPixel(page, Math.round(size.width / 2), Math.round(size.height / 2));
}

/** Everything this origin keeps or shows: the address, cookies, local and session storage, and every IndexedDB record (blobs by size). */
function everythingKept(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const parts = [location.href, document.cookie];
    for (const storage of [localStorage, sessionStorage]) {
      for (let index = 0; index < storage.length; index += 1) parts.push(`${storage.key(index)}=${storage.getItem(storage.key(index)!)}`);
    }
    const request = <T>(ask: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => Object.assign(ask, { onsuccess: () => resolve(ask.result), onerror: () => reject(ask.error) }));
    for (const { name } of await indexedDB.databases()) {
      const db = await request(indexedDB.open(name!));
      for (const store of db.objectStoreNames) {
        const records = await request(db.transaction(store).objectStore(store).getAll());
        parts.push(
          ...records.map((record) => JSON.stringify(record, (_key, value: unknown) => (value instanceof Blob ? `blob of ${value.size} bytes` : value))),
        );
      }
      db.close();
    }
    return parts.join('\n');
  });
}

describe('the Advanced capture options', SLOW, () => {
  it('captures a page behind a login green with a pasted cookie, and keeps the cookie out of storage, the link and the next load', async () => {
    // Prepare: without the cookie the dashboard is the red sign-in page (the control)
    const { page } = await open(runtime().url);
    expect(await page.$eval('#capture-advanced', (details) => (details as HTMLDetailsElement).open)).toBe(false);
    await capture(page, '/dashboard');
    expectColour(await centre(page), SIGNED_OUT_RGB);
    await page.click('#capture-advanced summary');
    await page.type('#capture-cookie-paste', `Cookie: theme=dark; session=${SESSION_SECRET}`);
    await page.keyboard.press('Enter');

    // Act
    const sent = await capture(page, '/dashboard');
    const signedIn = await centre(page);
    await page.click('#copy-link');
    await waitForStatus(page, '#link-status', 'Link copied', '#export-error');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    // The capture is kept for Recent once its record is written: wait for it, which also shows the dump reads the records.
    const kept = await waitFor(async () => {
      const all = await everythingKept(page);
      return all.includes(`capture of ${site().origin}/dashboard`) ? all : undefined;
    });
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');

    // Assess: sent, green, and nowhere but the request
    expect(sent.cookies).toEqual([
      { name: 'theme', value: 'dark' },
      { name: 'session', value: SESSION_SECRET },
    ]);
    expectColour(signedIn, SIGNED_IN_RGB);
    expect(await text(page, '#capture-cookie-paste-status')).toBe('');
    expect(link).not.toContain(SESSION_SECRET);
    expect(kept).not.toContain(SESSION_SECRET);
    expect(await everythingKept(page)).not.toContain(SESSION_SECRET);
    expect(await page.$$eval('#capture-cookies li', (rows) => rows.length)).toBe(0);
  });

  it('shows the pasted cookie as rows, sends the page green once, and clicks before the picture', async () => {
    // Prepare
    const { page } = await open(runtime().url);
    await page.click('#capture-advanced summary');
    await page.type('#capture-cookie-paste', `session=${SESSION_SECRET}`);
    await page.keyboard.press('Enter');
    const rows = await page.$$eval('#capture-cookies li', (items) => items.map((item) => [...item.querySelectorAll('input')].map((input) => input.value)));
    await page.type('#capture-click', '#open');
    await page.type('#capture-user-agent', 'EaselE2E/1.0');
    await page.type('#capture-css', 'button { outline: none }');
    await page.click('#capture-reduced-motion');

    // Act
    const sent = await capture(page, '/menu');

    // Assess: the menu page turns green only when its button is clicked
    expect(rows).toEqual([['session', SESSION_SECRET]]);
    expect(await text(page, '#capture-cookie-paste-status')).toBe('Cookies session added.');
    expect(sent).toMatchObject({
      click: '#open',
      userAgent: 'EaselE2E/1.0',
      css: 'button { outline: none }',
      reducedMotion: true,
      cookies: [{ name: 'session', value: SESSION_SECRET }],
    });
    expectColour(await centre(page), SIGNED_IN_RGB);
  });

  it.each([
    ['the 1280 × 800 preset', '1280x800', [], { width: 1280, height: 800 }],
    ['a custom 640 × 480', 'custom', ['640', '480'], { width: 640, height: 480 }],
  ])('captures at %s, the picture that size', async (_case, choice, sides, viewport) => {
    // Prepare
    const { page } = await open(runtime().url);
    await page.click('#capture-advanced summary');
    await page.select('#capture-viewport', choice);
    if (sides.length > 0) {
      await page.type('#capture-viewport-width', sides[0]!);
      await page.type('#capture-viewport-height', sides[1]!);
    }

    // Act
    const sent = await capture(page, '/plain');

    // Assess: the readout is the picture plus padding at the Auto scale (1× for desktop)
    expect(sent.viewport).toEqual(viewport);
    expect(await readout(page)).toEqual({ width: viewport.width + 2 * PADDING, height: viewport.height + 2 * PADDING });
  });

  it('refuses a custom viewport out of bounds before sending, with the field opened and focused', async () => {
    // Prepare
    const { page } = await open(runtime().url);
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/screenshot')) requests.push(request.url());
    });
    await page.type('#capture-url', `${site().origin}/plain`);
    await page.click('#capture-advanced summary');
    await page.select('#capture-viewport', 'custom');
    await page.type('#capture-viewport-width', '5000');
    await page.type('#capture-viewport-height', '900');
    await page.click('#capture-advanced summary');

    // Act
    await page.click('#capture-submit');
    await page.waitForSelector('#source-error .problem-message');

    // Assess
    expect(await text(page, '#source-error .problem-message')).toBe('The viewport width is a whole number of pixels from 320 to 3,840.');
    expect(
      await page.evaluate(() => ({ focused: document.activeElement?.id, open: (document.getElementById('capture-advanced') as HTMLDetailsElement).open })),
    ).toEqual({
      focused: 'capture-viewport-width',
      open: true,
    });
    expect(requests).toEqual([]);
  });

  it("says in words which header the API refused, with the envelope's hint under Details", async () => {
    // Prepare: Host is refused by the API, not by the form
    const { page } = await open(runtime().url);
    await page.type('#capture-url', `${site().origin}/plain`);
    await page.click('#capture-advanced summary');
    await page.click('#capture-add-header');
    await page.type('#capture-headers li .pair-name', 'Host');
    await page.type('#capture-headers li .pair-value', 'intranet.example');
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/screenshot'));

    // Act
    await page.click('#capture-submit');
    const response = await answer;
    const envelope = (await response.json()) as { code: string; hint: string };
    await page.waitForSelector('#source-error .problem-api');

    // Assess
    expect([response.status(), envelope.code]).toEqual([400, 'invalid_request']);
    expect(await text(page, '#source-error .problem-message')).toBe('The request header Host cannot be sent.');
    expect(await text(page, '#source-error .problem-api')).toContain(envelope.hint);
  });

  it('says a click selector matching nothing is the click selector, not the element selector', async () => {
    // Prepare
    const { page } = await open(runtime().url);
    await page.type('#capture-url', `${site().origin}/menu`);
    await page.click('#capture-advanced summary');
    await page.type('#capture-click', '#no-such-button');
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/screenshot'));

    // Act
    await page.click('#capture-submit');
    const response = await answer;
    await page.waitForSelector('#source-error .problem-api');

    // Assess
    expect(response.status()).toBe(404);
    expect(await text(page, '#source-error .problem-message')).toBe('Nothing on the page matches the click selector.');
    expect(await text(page, '#source-error .problem-api')).toContain('#no-such-button');
  });

  it.each([
    ['at 1440 × 900', { width: 1440, height: 900 }],
    ['on a 375 px screen', { width: 375, height: 812 }],
  ])('fits the open Advanced section %s, every control labelled and at least 24 px', async (name, viewport) => {
    // Prepare
    const { page } = await open(runtime().url, viewport);
    await page.click('#capture-advanced summary');
    await page.select('#capture-viewport', 'custom');
    await page.click('#capture-add-cookie');
    await page.type('#capture-cookies li .pair-name', 'session');
    await page.type('#capture-cookies li .pair-value', 'a-long-session-value-that-is-wider-than-its-box-0123456789');
    await page.click('#capture-add-header');

    // Act
    const width = name.includes('375') ? '375' : '1440';
    await page.$eval('#capture-viewport-custom', (sides) => sides.scrollIntoView({ block: 'end' }));
    await saveScreenshot(page, `editor-capture-advanced-options-${width}`);
    await page.$eval('.sign-in', (box) => box.scrollIntoView({ block: 'end' }));
    await saveScreenshot(page, `editor-capture-advanced-sign-in-${width}`);
    const layout = await page.evaluate(() => {
      const panel = document.getElementById('sources')!.getBoundingClientRect();
      const controls = [...document.querySelectorAll<HTMLElement>('#capture-advanced :is(input, select, textarea, button)')].filter(
        (control) => control.offsetParent !== null,
      );
      return {
        overflow: document.documentElement.scrollWidth > window.innerWidth,
        outside: controls.filter((control) => control.getBoundingClientRect().right > panel.right + 0.5).map((control) => control.id || control.className),
        small: controls
          .filter((control) => control.getBoundingClientRect().height < 24 || control.getBoundingClientRect().width < 24)
          .map((control) => control.id || control.className),
        unlabelled: controls
          .filter((control) => control.tagName !== 'BUTTON' && !(control as HTMLInputElement).labels?.length && !control.getAttribute('aria-label'))
          .map((control) => control.id || control.className),
      };
    });

    await page.click('#capture-headers .pair-remove');
    const afterRemove = await page.evaluate(() => ({ headers: document.querySelectorAll('#capture-headers li').length, focused: document.activeElement?.id }));

    // Assess: and a removed row leaves the focus on its Add button
    expect(layout).toEqual({ overflow: false, outside: [], small: [], unlabelled: [] });
    expect(afterRemove).toEqual({ headers: 0, focused: 'capture-add-header' });
  });
});
