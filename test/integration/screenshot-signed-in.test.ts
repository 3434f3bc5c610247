/**
 * POST /api/screenshot with headers and cookies (issue 32) through the local runtime and the real
 * Chromium: judged on the pixels of pages that turn green only when signed in, on what a second
 * origin received, and on what the cache and the logs kept.
 */
import { describe, expect, it } from 'vitest';
import { call, freshClient } from '../support/client.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { readPixels } from '../support/images.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { collectedLogLines } from '../support/secret-audit.ts';
import { GREEN, PASS, RED, startSignedInPages } from '../support/signed-in-pages.ts';
import { startListener } from '../support/target-pages.ts';
import { DASHBOARD_COLOUR, LOGIN_SITE, loginSite } from '#infra/tools/login-site.ts';

const suite = useRuntimeWithPages(startSignedInPages);

const capture = (body: Record<string, unknown>) => call(suite.runtime.url, '/api/screenshot', { body, from: freshClient() });
const VIEWPORT = 1920 * 1080;
const header = { [PASS.header[0]]: PASS.header[1] };
const cookie = { name: PASS.cookie[0], value: PASS.cookie[1] };

/** The second origin's hits from one page (`from`): its image, its fetch and the redirect its frame followed. */
async function secondHits(from: string) {
  await expect.poll(() => suite.pages.hits.filter((hit) => hit.origin === 'second' && hit.path.includes(`from=${from}-`)).length, { timeout: 10_000 }).toBe(3);
  return suite.pages.hits.filter((hit) => hit.origin === 'second' && hit.path.includes(`from=${from}-`));
}

describe('POST /api/screenshot: headers', () => {
  it('sends the headers to the target origin only: the page is green, the second origin and the redirect there get none', async () => {
    // Prepare: a mark of this capture's requests
    const url = `${suite.pages.origin}/header?run=headers-only-target`;

    // Act
    const response = await capture({ url, headers: header });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.cached).toBe(false);
    expect((await readPixels(response.body.screenshot)).count(GREEN)).toBe(VIEWPORT);
    const sameOrigin = suite.pages.hits.filter((hit) => hit.origin === 'target' && hit.path === '/same?from=header-headers-only-target');
    expect(sameOrigin.at(-1)?.headers[PASS.header[0].toLowerCase()]).toBe(PASS.header[1]);
    const elsewhere = await secondHits('header-headers-only-target');
    expect(elsewhere.map((hit) => hit.path.replace(/\?.*-/, '?')).sort()).toEqual(['/probe.png?img', '/probe?fetch', '/probe?redirect']);
    for (const hit of elsewhere) expect(hit.headers[PASS.header[0].toLowerCase()]).toBeUndefined();
  });

  it('shows the page as anyone sees it without them (the control)', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/header?run=control` });

    // Assess
    expect(response.status).toBe(200);
    expect((await readPixels(response.body.screenshot)).count(RED)).toBe(VIEWPORT);
  });

  it('leaves every request to the address guard: a refused address is not reached with headers either', async () => {
    // Prepare: a listener on a port captures may not reach
    const forbidden = await startListener();
    try {
      // Act
      const response = await capture({ url: `${suite.pages.origin}/header?also=${encodeURIComponent(`${forbidden.origin}/steal.png`)}`, headers: header });

      // Assess
      expect(response.status).toBe(200);
      expect(response.body.report.requests.refused).toBeGreaterThanOrEqual(1);
      expect(forbidden.connections).toBe(0);
    } finally {
      await forbidden.close();
    }
  });
});

describe('POST /api/screenshot: cookies', () => {
  it("sets the cookies for the target's host only: the page is green, the second origin gets no cookie", async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/cookie?run=host-only`, cookies: [cookie] });

    // Assess
    expect(response.status).toBe(200);
    expect((await readPixels(response.body.screenshot)).count(GREEN)).toBe(VIEWPORT);
    for (const hit of await secondHits('cookie-host-only')) expect(hit.headers.cookie).toBeUndefined();
  });

  it('never serves a signed-in capture to a request without the cookie, nor a cached one to a request with it', async () => {
    // Prepare
    const url = `${suite.pages.origin}/cookie?run=cache`;

    // Act
    const signedIn = await capture({ url, cookies: [cookie] });
    const anonymous = await capture({ url });
    const anonymousAgain = await capture({ url });
    const signedInAgain = await capture({ url, cookies: [cookie] });

    // Assess
    expect([signedIn.body.cached, anonymous.body.cached, anonymousAgain.body.cached, signedInAgain.body.cached]).toEqual([false, false, true, false]);
    expect((await readPixels(signedIn.body.screenshot)).count(GREEN)).toBe(VIEWPORT);
    expect((await readPixels(anonymous.body.screenshot)).count(RED)).toBe(VIEWPORT);
    expect((await readPixels(signedInAgain.body.screenshot)).count(GREEN)).toBe(VIEWPORT);
  });

  it('writes no header or cookie value to the logs', async () => {
    // Prepare
    const secrets = [PASS.header[1], PASS.cookie[1]];

    // Act
    const response = await capture({ url: `${suite.pages.origin}/cookie?run=logs`, cookies: [cookie], headers: header, click: '.nothing' });

    // Assess: a failing capture, whose error is logged, carries neither either
    expect(response.status).toBe(404);
    expect(JSON.stringify(response.body)).not.toMatch(new RegExp(secrets.join('|')));
    expect(collectedLogLines().filter((line) => secrets.some((secret) => line.includes(secret)))).toEqual([]);
  });

  it('answers a cookie the browser refuses with 400 invalid_request naming neither cookie nor value', async () => {
    // Act: a __Host- cookie must be secure
    const response = await capture({ url: `${suite.pages.origin}/cookie`, cookies: [{ name: '__Host-pass', value: PASS.cookie[1] }] });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      ...expectedEnvelope(suite.runtime.url, 400, 'invalid_request'),
      error: 'Invalid cookies',
      message: 'Invalid cookies',
      hint: expect.stringContaining('127.0.0.1'),
    });
    expect(response.body.hint).not.toContain(PASS.cookie[1]);
  });
});

describe('docs/capture.md, "Capturing a page behind a login"', () => {
  it.each([
    ['the session cookie', { cookies: [{ name: LOGIN_SITE.cookie, value: LOGIN_SITE.session, httpOnly: true }] }, 1440 * 120],
    ['the bearer token', { headers: { Authorization: `Bearer ${LOGIN_SITE.token}` } }, 1440 * 120],
    ['nothing: the sign-in form (the control)', {}, 0],
  ])("captures the worked example's dashboard with %s", async (_case, credentials, header) => {
    // Prepare: the example's site on 127.0.0.3, at the port captures may reach
    const site = loginSite();
    await new Promise<void>((resolve, reject) => site.once('error', reject).listen(suite.pages.port, '127.0.0.3', resolve));
    try {
      // Act
      const response = await capture({ url: `http://127.0.0.3:${suite.pages.port}/dashboard`, viewport: { width: 1440, height: 900 }, ...credentials });

      // Assess
      expect(response.status).toBe(200);
      const image = await readPixels(response.body.screenshot);
      expect({ width: image.width, height: image.height }).toEqual({ width: 1440, height: 900 });
      // The header, but for its white heading
      expect(image.count(DASHBOARD_COLOUR)).toBeGreaterThanOrEqual(header * 0.9);
      expect(image.count(DASHBOARD_COLOUR)).toBeLessThanOrEqual(header);
    } finally {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  });
});
