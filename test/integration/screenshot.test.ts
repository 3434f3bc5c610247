/**
 * POST /api/screenshot through the local runtime, with the real bundled Chromium, against pages
 * this file serves on 127.0.0.1. One runtime and one browser serve every test of the file.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, freshClient } from '../support/client.ts';
import type { ClientResponse } from '../support/client.ts';
import { startTestRuntime } from '../support/local.ts';
import { inOneWindow } from '../support/clock.ts';
import type { TestRuntime } from '../support/local.ts';
import { pngSize, startListener, startTargetPages } from '../support/target-pages.ts';
import type { Listener, TargetPages } from '../support/target-pages.ts';
import { expectedEnvelope } from '../support/expectations.ts';

let runtime: TestRuntime;
let pages: TargetPages;
let forbidden: Listener;

beforeAll(async () => {
  pages = await startTargetPages();
  // Not in the opt-in list: a connection to it is an SSRF escape.
  forbidden = await startListener();
  process.env.UNSAFE_TEST_LOOPBACK_PORTS = String(pages.port);
  runtime = await startTestRuntime();
});

afterAll(async () => {
  await runtime?.dispose();
  await pages?.close();
  await forbidden?.close();
  delete process.env.UNSAFE_TEST_LOOPBACK_PORTS;
});

const capture = (body: unknown, from = freshClient(), headers: Record<string, string> = {}) => call(runtime.url, '/api/screenshot', { body, from, headers });

const envelope = (status: number, code: string) => expectedEnvelope(runtime.url, status, code);

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The rate-limit headers every POST response carries; `remaining` when the test knows it. */
function expectRateHeaders(response: ClientResponse, remaining?: number): void {
  expect(response.headers['x-ratelimit-limit']).toBe('20');
  expect(response.headers['x-ratelimit-remaining']).toBe(remaining === undefined ? expect.stringMatching(/^\d+$/) : String(remaining));
  // The end of the minute window the server counted in, which it read between sending and receiving.
  const reset = Number(response.headers['x-ratelimit-reset']);
  expect(reset % 60_000).toBe(0);
  expect(reset).toBeGreaterThan(response.sentAt);
  expect(reset).toBeLessThanOrEqual(response.receivedAt + 60_000);
}

async function pixel(base64: string, x: number, y: number): Promise<[number, number, number]> {
  const raw = await sharp(Buffer.from(base64, 'base64')).extract({ left: x, top: y, width: 1, height: 1 }).removeAlpha().raw().toBuffer();
  return [raw[0]!, raw[1]!, raw[2]!];
}

describe('POST /api/screenshot: a capture', () => {
  it('returns the desktop viewport as a 1920×1080 base64 PNG with the normalised URL', async () => {
    // Act
    const response = await capture({ url: `HTTP://127.0.0.1:${pages.port}/plain?title=desktop#section` });

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expectRateHeaders(response, 19);
    expect(response.body).toEqual({
      screenshot: expect.stringMatching(BASE64),
      url: `${pages.origin}/plain?title=desktop`,
      cached: false,
      strategy: 'local-chromium',
      deviceType: 'desktop',
      colorScheme: 'light',
      report: { status: 200, images: { found: 0, loaded: 0 }, fontsReady: true, requests: { total: 1, refused: 0, blockedAds: 0 }, settled: true },
    });
    expect(pngSize(Buffer.from(response.body.screenshot, 'base64'))).toEqual({ width: 1920, height: 1080 });
  });

  it('returns the mobile viewport (375×667 at scale 2) as a 750×1334 PNG, with a phone user agent', async () => {
    // Act
    const response = await capture({ url: `${pages.origin}/plain?title=mobile`, deviceType: 'mobile' });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ cached: false, deviceType: 'mobile', colorScheme: 'light' });
    expect(pngSize(Buffer.from(response.body.screenshot, 'base64'))).toEqual({ width: 750, height: 1334 });
    const hit = pages.hits.find((entry) => entry.path === '/plain?title=mobile');
    expect(hit?.headers['user-agent']).toMatch(/Android.*Mobile Safari/);
    expect(hit?.headers['user-agent']).not.toContain('Headless');
  });

  it.each([
    ['light', [255, 255, 255]],
    ['dark', [0, 0, 0]],
  ] as const)('passes colorScheme %s to the page as prefers-color-scheme', async (colorScheme, colour) => {
    // Act
    const response = await capture({ url: `${pages.origin}/scheme`, colorScheme });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.colorScheme).toBe(colorScheme);
    expect(await pixel(response.body.screenshot, 960, 900)).toEqual(colour);
  });

  it('starts every capture with no cookies or storage from an earlier one', async () => {
    // Prepare: a page that leaves a cookie, local and session storage behind
    const first = await capture({ url: `${pages.origin}/stateful` });
    const before = pages.reports.length;

    // Act: a page on the same origin that reports what it finds
    const second = await capture({ url: `${pages.origin}/report` });

    // Assess
    expect([first.status, second.status]).toEqual([200, 200]);
    await expect.poll(() => pages.reports.length).toBeGreaterThan(before);
    expect(Object.fromEntries(pages.reports.at(-1)!)).toEqual({ cookie: '', local: '', session: '' });
    expect(pages.hits.filter((hit) => hit.path === '/report').map((hit) => hit.headers.cookie)).toEqual([undefined]);
  });
});

describe('POST /api/screenshot: the cache', () => {
  it('answers miss, then hit, then with forceRefresh a new capture that replaces the entry', async () => {
    // Prepare: a page that says how many times it was loaded
    const url = `${pages.origin}/counter?key=${randomUUID()}`;
    const loads = () => pages.hits.filter((hit) => hit.path === new URL(url).pathname + new URL(url).search).length;

    // Act
    const miss = await capture({ url });
    const hit = await capture({ url: `${url.replace('http://', 'HTTP://')}#same-page` });
    const refreshed = await capture({ url, forceRefresh: true });
    const afterRefresh = await capture({ url });

    // Assess
    expect([miss.status, hit.status, refreshed.status, afterRefresh.status]).toEqual([200, 200, 200, 200]);
    expect([miss.body.cached, hit.body.cached, refreshed.body.cached, afterRefresh.body.cached]).toEqual([false, true, false, true]);
    expect(loads()).toBe(2);
    expect(hit.body).toEqual({ ...miss.body, cached: true });
    expect(refreshed.body.screenshot).not.toBe(miss.body.screenshot);
    expect(afterRefresh.body).toEqual({ ...refreshed.body, cached: true });
  });

  it('keeps one entry per device type and colour scheme', async () => {
    // Prepare
    const url = `${pages.origin}/counter?key=${randomUUID()}`;
    await capture({ url });

    // Act
    const variants = await Promise.all([
      capture({ url, deviceType: 'mobile' }),
      capture({ url, colorScheme: 'dark' }),
      capture({ url, deviceType: 'desktop', colorScheme: 'light' }),
    ]);

    // Assess
    expect(variants.map((response) => response.body.cached)).toEqual([false, false, true]);
  });
});

describe('POST /api/screenshot: refused targets', () => {
  const vectors = () => {
    const port = forbidden.port;
    return [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://LOCALHOST.:${port}/`,
      `http://[::1]:${port}/`,
      `http://0.0.0.0:${port}/`,
      `http://0:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://017700000001:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://127.1:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://１２７.０.０.１:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
      `http://[0:0:0:0:0:ffff:127.0.0.1]:${port}/`,
      `http://[::]:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://10.0.0.1/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://[64:ff9b::7f00:1]/',
      `file:///etc/passwd`,
      `ftp://127.0.0.1:${port}/`,
      `gopher://127.0.0.1:${port}/`,
      'javascript:alert(1)',
      'data:text/html,<h1>hi</h1>',
      `http://user:secret@127.0.0.1:${pages.port}/plain`,
      `https://user@example.com/`,
    ];
  };

  it('refuses at least 20 internal or non-http targets with 400 invalid_url, and none reaches a local listener', async () => {
    // Prepare
    const list = vectors();
    const hitsBefore = pages.hits.length;

    // Act
    const responses = await Promise.all(list.map((url) => capture({ url })));

    // Assess
    expect(list.length).toBeGreaterThanOrEqual(20);
    for (const [index, response] of responses.entries()) {
      expect({ url: list[index], status: response.status, body: response.body }).toEqual({ url: list[index], status: 400, body: envelope(400, 'invalid_url') });
      expectRateHeaders(response, 19);
    }
    expect(forbidden.connections).toBe(0);
    expect(pages.hits.length).toBe(hitsBefore);
  });

  it.each([
    ['a loopback listener', () => `http://127.0.0.1:${forbidden.port}/`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses a redirect to %s with 400 invalid_url', async (_case, target) => {
    // Act
    const response = await capture({ url: `${pages.origin}/redirect?to=${encodeURIComponent(target())}` });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope(400, 'invalid_url'));
    expect(response.body.hint).toMatch(/^The page went to .*, refused: (loopback|link-local) address\.$/);
    expect(forbidden.connections).toBe(0);
  });

  it('follows a redirect to an allowed page and names the page it drew', async () => {
    // Act
    const response = await capture({ url: `${pages.origin}/redirect?to=/plain%3Ftitle%3Dredirected` });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.url).toBe(`${pages.origin}/plain?title=redirected`);
    expect(pages.hits.some((hit) => hit.path === '/plain?title=redirected')).toBe(true);
  });

  it('captures a page while blocking its image, stylesheet, frame, fetch, WebSocket, EventSource, beacon, worker and popup requests to a private address', async () => {
    // Act
    const response = await capture({ url: `${pages.origin}/subresources?target=${encodeURIComponent(`http://127.0.0.1:${forbidden.port}`)}` });

    // Assess: the page itself (green) is captured, the listener sees nothing
    expect(response.status).toBe(200);
    expect(await pixel(response.body.screenshot, 960, 900)).toEqual([0, 160, 0]);
    expect(forbidden.connections).toBe(0);
  });
});

describe('POST /api/screenshot: request problems', () => {
  it.each([
    ['no url', { deviceType: 'mobile' }, 'invalid_request', /^url is required/],
    ['a url that is not a string', { url: 42 }, 'invalid_request', /^url:/],
    ['an unknown field', { url: 'https://example.com/', fullPages: true }, 'invalid_request', /Remove fullPages/],
    ['malformed JSON', '{"url": ', 'invalid_request', /not valid JSON/],
    ['a JSON array', [], 'invalid_request', /JSON object/],
    ['a deviceType outside its enum', { url: 'https://example.com/', deviceType: 'tablet' }, 'unsupported_value', /desktop, mobile/],
    ['a colorScheme outside its enum', { url: 'https://example.com/', colorScheme: 'sepia' }, 'unsupported_value', /light, dark/],
    ['a forceRefresh that is not a boolean', { url: 'https://example.com/', forceRefresh: 'yes' }, 'invalid_request', /^forceRefresh:/],
    ['a malformed URL', { url: 'not a url' }, 'invalid_url', /absolute http/],
    ['a relative URL', { url: '/plain' }, 'invalid_url', /absolute http/],
  ])('answers %s with 400 and the rate-limit headers', async (_case, body, code, hint) => {
    // Act
    const response = await capture(body);

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ ...envelope(400, code), hint: expect.stringMatching(hint) });
    expectRateHeaders(response, 19);
  });

  it('answers a body over 512 KiB with 413', async () => {
    // Act
    const response = await capture({ url: `https://example.com/?q=${'a'.repeat(600_000)}` });

    // Assess
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ ...envelope(413, 'invalid_request'), limit: 524_288 });
    expectRateHeaders(response, 19);
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('answers %s with 405 and Allow: POST', async (method) => {
    // Act
    const response = await call(runtime.url, '/api/screenshot', { method });

    // Assess
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(response.body).toEqual(envelope(405, 'method_not_allowed'));
  });
});

describe('POST /api/screenshot: rate limit', () => {
  it('lets exactly 20 of 30 concurrent requests from one address through and refuses 10 with 429', async () => {
    // Prepare: a cached page; all 30 in one minute window
    const url = `${pages.origin}/plain?title=rate`;
    expect((await capture({ url })).status).toBe(200);
    const client = freshClient();

    // Act
    const { responses, spoofed, other } = await inOneWindow(60, async () => ({
      responses: await Promise.all(Array.from({ length: 30 }, () => capture({ url }, client))),
      // A header the client controls does not buy another allowance; another address has its own.
      spoofed: await capture({ url }, client, { 'x-forwarded-for': '198.51.100.7', 'x-real-ip': '198.51.100.7' }),
      other: await capture({ url }),
    }));

    // Assess
    const ok = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 429);
    expect([ok.length, refused.length]).toEqual([20, 10]);
    expect(ok.every((response) => response.body.cached === true)).toBe(true);
    expect(ok.map((response) => Number(response.headers['x-ratelimit-remaining'])).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const resets = new Set(responses.map((response) => response.headers['x-ratelimit-reset']));
    expect(resets.size).toBe(1);
    for (const response of refused) {
      expectRateHeaders(response, 0);
      const retryAfter = Number(response.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const reset = Number(response.headers['x-ratelimit-reset']);
      expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, Math.ceil((reset - response.receivedAt) / 1000)));
      expect(retryAfter).toBeLessThanOrEqual(Math.max(1, Math.ceil((reset - response.sentAt) / 1000)));
      expect(response.body).toEqual({
        ...envelope(429, 'rate_limited'),
        retryAfter,
        hint: `Wait ${retryAfter} s before retrying: the limit is 20 requests per 60 s per IP address.`,
      });
    }
    expect(spoofed.status).toBe(429);
    expect(other.status).toBe(200);
  });
});
