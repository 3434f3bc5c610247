/**
 * Redaction in a browser with site isolation, as a remote browser may run: frames of another site
 * are processes and DevTools targets of their own, which the page's snapshot does not hold; each is
 * read over a session of its own and placed in its frame, nested ones too.
 */
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deadline } from '#shared/services/capture/deadline.ts';
import { paintPng } from '#shared/services/capture/redaction/paint.ts';
import { redactPage } from '#shared/services/capture/redaction/redact-page.ts';
import { launchSiteIsolated } from '../support/browser.ts';
import { startRedactionPages } from '../support/redaction-pages.ts';
import type { RedactionPages } from '../support/redaction-pages.ts';
import { changedOutside, notBlack, pixels, redPixels } from '../support/redaction-pixels.ts';

let browser: Browser;
let pages: RedactionPages;

beforeAll(async () => {
  [browser, pages] = await Promise.all([launchSiteIsolated(), startRedactionPages()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), pages?.close()]);
});

describe('redactPage with site isolation', () => {
  it('reads and covers the text of frames in other processes, nested ones too, where they are drawn', async () => {
    // Prepare
    const page = await browser.newPage();
    await page.setViewport({ width: 1000, height: 600 });
    await page.goto(`${pages.origin}/isolated`, { waitUntil: 'load' });
    const session = await page.createCDPSession();
    const own = await session.send('DOMSnapshot.captureSnapshot', { computedStyles: [] });
    const plain = await pixels(Buffer.from(await page.screenshot({ type: 'png' })).toString('base64'));
    const deadline = new Deadline(30_000);

    // Act
    const redacted = await redactPage({
      page,
      kinds: ['email'],
      area: null,
      deadline,
      take: async (cover) => paintPng(await page.screenshot({ type: 'png', optimizeForSpeed: cover.expected }), cover),
    });
    deadline.dispose();

    // Assess: the page's own process holds only its document; both frames' addresses are covered where drawn.
    expect(own.documents).toHaveLength(1);
    expect(redacted.redactions.map((box) => ({ kind: box.kind, x: box.x, y: box.y }))).toEqual([
      // The outer frame's content starts past its border (5) and padding (7), its text past its margin (4).
      { kind: 'email', x: 100 + 5 + 7 + 4 - 1, y: expect.any(Number) },
      // The inner frame sits past the outer's first line and its own margin (10).
      { kind: 'email', x: 100 + 5 + 7 + 10 + 4 - 1, y: expect.any(Number) },
    ]);
    const after = await pixels(Buffer.from(redacted.png).toString('base64'));
    expect(redPixels(plain)).toBeGreaterThan(0);
    expect(redPixels(after)).toBe(0);
    for (const box of redacted.redactions) expect({ box, notBlack: notBlack(after, box) }).toEqual({ box, notBlack: 0 });
    expect(changedOutside(plain, after, redacted.redactions)).toBe(0);
  });
});
