/**
 * Redaction before saving, in the real browser against the local runtime: the Redact panel in the
 * first screen at 1440×900, and Save warning about a capture that shows a card number and an API
 * key, offering to redact first (then saving once reviewed), to save anyway or to cancel.
 */
import type { HTTPRequest, Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser.ts';
import { serveOnLoopback } from '../support/loopback-server.ts';
import { previewSettled, SLOW, text, waitForStatus } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';
import { useOwnerSession } from './support/signed-in.ts';

// Split, so secret scanners of this repository do not flag the fixture.
const AWS_KEY = ['AKIA', 'Q3EGRSTUVWXYZ234'].join('');
const CARD = '4242 4242 4242 4242';
const page = (lines: string[]) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body style="margin:40px;font:24px/32px monospace;background:#fff;color:#000">${lines
    .map((line) => `<p>${line}</p>`)
    .join('')}</body></html>`;

const { runtime, open, site } = useEditorSuite({
  name: 'redact-save',
  site: () =>
    serveOnLoopback((request, response) => {
      const lines = request.url === '/plain' ? ['Quarterly report', 'Nothing to hide here'] : ['Billing', `Card: ${CARD}`, `Key: ${AWS_KEY}`];
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page(lines));
    }),
  env: { CAPTURE_TIMEOUT_MS: '25000' },
});
const owner = useOwnerSession(runtime, { email: 'grace@example.com', name: 'Grace Hopper', organization: 'Compilers' });

/** Signed in as the organization's owner, captures a page of the site. */
async function captured(path = '/billing'): Promise<Page> {
  const { page: tab, context } = await open(runtime().url);
  await owner.signIn(context);
  await tab.reload();
  await tab.waitForSelector('html[data-ready="true"]');
  await tab.waitForFunction(() => document.getElementById('account-label')?.textContent === 'Grace Hopper · Compilers', SLOW);
  await tab.type('#capture-url', `${site().origin}${path}`);
  await tab.click('#capture-submit');
  await waitForStatus(tab, '#capture-status', 'Captured', '#source-error');
  await previewSettled(tab);
  return tab;
}

/** Every request the page makes to upload an asset, from now on. */
function uploads(tab: Page): string[] {
  const seen: string[] = [];
  tab.on('request', (request: HTTPRequest) => {
    if (request.url().includes('/api/v1/assets/upload-url')) seen.push(request.url());
  });
  return seen;
}

async function warning(tab: Page): Promise<string> {
  await tab.waitForSelector('#save-warning[open]', SLOW);
  return text(tab, '#save-warning-text');
}

const redactions = (tab: Page) =>
  tab.evaluate(() => {
    const all = JSON.parse(localStorage.getItem('easel.editor.edits') ?? '[]') as [string, { annotations: { kind: string }[] }][];
    return (all[0]?.[1].annotations ?? []).map((annotation) => annotation.kind);
  });

describe('redaction before saving', SLOW, () => {
  it('shows the Redact panel in the first screen at 1440×900, uncovered', async () => {
    // Prepare + Act
    const { page: tab } = await open(runtime().url);
    const placed = await tab.$eval('#redact-button', (button) => {
      const rect = button.getBoundingClientRect();
      const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
      return { bottom: rect.bottom, right: rect.right, hit: hit === button || button.contains(hit), scrollY };
    });
    await saveScreenshot(tab, 'redact-first-screen-1440');

    // Assess
    expect(placed).toMatchObject({ hit: true, scrollY: 0 });
    expect(placed.bottom).toBeLessThanOrEqual(900);
    expect(placed.right).toBeLessThanOrEqual(1440);
  });

  it('warns before saving a capture with a card number and an API key, redacts first on request, and saves once reviewed', async () => {
    // Prepare
    const tab = await captured();
    const sent = uploads(tab);

    // Act: Save, and take the offer to redact first
    await tab.click('#save-button');
    const said = await warning(tab);
    await saveScreenshot(tab, 'redact-save-warning-1440');
    await tab.click('#save-warning-redact');
    await tab.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('Not saved'), SLOW);
    const afterRedact = { save: await text(tab, '#save-status'), redact: await text(tab, '#redact-status'), boxes: await redactions(tab), sent: sent.length };

    // Act: Save again, now that the boxes are there
    await tab.click('#save-button');
    await waitForStatus(tab, '#save-status', 'Saved', '#save-error');

    // Assess
    expect(said).toBe(
      'The page shows 1 card number, 1 API key, uncovered in this picture. Redact first covers them with boxes to review, and does not save; or save it as it is.',
    );
    expect(afterRedact).toEqual({
      save: 'Not saved: review the redaction boxes, then save again.',
      redact: 'Found 1 card number, 1 API key — review the boxes.',
      boxes: ['solid', 'solid'],
      sent: 0,
    });
    expect(await tab.$('#save-warning[open]')).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it('saves anyway when told to, and asks no more for that capture; Cancel saves nothing', async () => {
    // Prepare
    const tab = await captured();
    const sent = uploads(tab);

    // Act: Cancel first, then Save anyway, then Save once more
    await tab.click('#save-button');
    await warning(tab);
    await tab.click('#save-warning-cancel');
    await tab.waitForFunction(() => document.getElementById('save-status')?.textContent === 'Not saved.', SLOW);
    const afterCancel = sent.length;
    await tab.click('#save-button');
    await warning(tab);
    await tab.click('#save-warning-save');
    await waitForStatus(tab, '#save-status', 'Saved', '#save-error');
    const checks: string[] = [];
    tab.on('request', (request) => {
      if (request.url().endsWith('/api/screenshot')) checks.push(request.url());
    });
    await tab.click('#save-button');
    await expect.poll(() => sent.length).toBe(2);
    await waitForStatus(tab, '#save-status', 'Saved', '#save-error');

    // Assess
    expect(afterCancel).toBe(0);
    expect(checks).toEqual([]);
    expect(await redactions(tab)).toEqual([]);
  });

  it('saves nothing while a redaction is under way, whose boxes the file would lack', async () => {
    // Prepare: the redaction's capture held until the Save has answered
    const tab = await captured();
    const sent = uploads(tab);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await tab.setRequestInterception(true);
    tab.on('request', (request) => {
      if (request.isInterceptResolutionHandled()) return;
      if (request.url().endsWith('/api/screenshot')) void held.then(() => request.continue());
      else void request.continue();
    });

    // Act
    await tab.click('#redact-button');
    await tab.waitForFunction(() => document.getElementById('redact-status')?.textContent === 'Finding sensitive text…');
    await tab.click('#save-button');
    await tab.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('Not saved'), SLOW);
    const said = await text(tab, '#save-status');
    release();
    await waitForStatus(tab, '#redact-status', 'Found', '#redact-error');

    // Assess
    expect(said).toBe('Not saved: the page is being searched for sensitive text; save once that ends.');
    expect(sent).toEqual([]);
    expect(await redactions(tab)).toEqual(['solid', 'solid']);
  });

  it('saves a capture in which redaction finds nothing without asking', async () => {
    // Prepare
    const tab = await captured('/plain');

    // Act
    await tab.click('#save-button');
    await waitForStatus(tab, '#save-status', 'Saved', '#save-error');

    // Assess
    expect(await tab.$('#save-warning[open]')).toBeNull();
    expect(await text(tab, '#redact-status')).toBe('Found nothing to redact before saving.');
  });
});
