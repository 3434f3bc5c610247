/**
 * The second capture strategy: a remote browser reached over a CDP WebSocket. Through the
 * runtime with an endpoint nobody answers (503), and at the service level against a real
 * Chromium this file launches and exposes over CDP.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachingResolver, systemResolver } from '#shared/net/guard.ts';
import { RemoteBrowser, chromiumArgs } from '#shared/services/capture/browsers.ts';
import { createScreenshotService } from '#shared/services/capture/screenshot-service.ts';
import { createTargetGuard } from '#shared/services/capture/target.ts';
import type { CachedCapture, CaptureCache, CaptureKey } from '#shared/store/capture-cache.ts';
import { call, freshClient } from '../support/client.ts';
import { startTestRuntime } from '../support/local.ts';
import type { TestRuntime } from '../support/local.ts';
import { pngSize, startListener, startTargetPages } from '../support/target-pages.ts';
import type { Listener, TargetPages } from '../support/target-pages.ts';

let pages: TargetPages;
let forbidden: Listener;

beforeAll(async () => {
  pages = await startTargetPages();
  forbidden = await startListener();
});

afterAll(async () => {
  await pages?.close();
  await forbidden?.close();
});

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('POST /api/screenshot with an unreachable remote browser', () => {
  let runtime: TestRuntime;
  let cache: CaptureCache;

  beforeAll(async () => {
    process.env.UNSAFE_TEST_LOOPBACK_PORTS = String(pages.port);
    process.env.BROWSER_WS_ENDPOINT = `ws://127.0.0.1:${await unusedPort()}/devtools/browser/gone`;
    runtime = await startTestRuntime();
    cache = (await import('#shared/wiring/capture-cache.ts')).captureCache();
  });

  afterAll(async () => {
    await runtime?.dispose();
    delete process.env.UNSAFE_TEST_LOOPBACK_PORTS;
    delete process.env.BROWSER_WS_ENDPOINT;
  });

  const capture = (body: unknown) => call(runtime.url, '/api/screenshot', { body, from: freshClient() });

  it('answers 503 upstream_unavailable', async () => {
    // Act
    const response = await capture({ url: `${pages.origin}/plain?title=remote-down` });

    // Assess
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      error: 'Service temporarily unavailable',
      code: 'upstream_unavailable',
      message: 'Service temporarily unavailable',
      hint: 'The remote capture browser cannot be reached; retry later.',
      status: 503,
      documentation: `${runtime.url}/docs/errors#upstream_unavailable`,
    });
    expect(response.headers['x-ratelimit-remaining']).toBe('19');
  });

  it('still answers from the cache while the remote browser is down', async () => {
    // Prepare: an entry an earlier (remote) capture left
    const url = `${pages.origin}/plain?title=cached-before-outage`;
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    await cache.put({ url, deviceType: 'desktop', colorScheme: 'light' }, { png, strategy: 'remote-cdp' }, 60);

    // Act
    const response = await capture({ url });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      screenshot: png.toString('base64'),
      url,
      cached: true,
      strategy: 'remote-cdp',
      deviceType: 'desktop',
      colorScheme: 'light',
    });
  });

  it('refuses a private target with 400 before trying the remote browser', async () => {
    // Act
    const response = await capture({ url: `http://127.0.0.1:${forbidden.port}/` });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_url');
  });
});

/** A cache that keeps entries in memory, for service-level tests. */
function memoryCache(): CaptureCache & { entries: Map<string, CachedCapture> } {
  const entries = new Map<string, CachedCapture>();
  const id = (key: CaptureKey) => `${key.url} ${key.deviceType} ${key.colorScheme}`;
  return {
    entries,
    get: async (key) => entries.get(id(key)),
    put: async (key, capture) => void entries.set(id(key), { ...capture, capturedAt: Date.now() }),
    purgeUrl: async () => 0,
    purgeAll: async () => 0,
  };
}

describe('the remote-cdp strategy against a live browser', () => {
  let remote: Browser;
  let backend: RemoteBrowser;

  beforeAll(async () => {
    remote = await puppeteer.launch({ executablePath: await chromium.executablePath(), headless: 'shell', args: await chromiumArgs({ singleProcess: false }) });
    backend = new RemoteBrowser({ endpoint: remote.wsEndpoint(), connectTimeoutMs: 5_000, protocolTimeoutMs: 20_000 });
  });

  afterAll(async () => {
    await backend?.close();
    await remote?.close();
  });

  const service = () =>
    createScreenshotService({
      browsers: backend,
      guard: createTargetGuard({ loopbackPorts: [pages.port] }, cachingResolver(systemResolver, 30_000)),
      cache: memoryCache(),
      timeoutMs: 10_000,
      cacheTtlSeconds: 60,
    });

  it('captures there, names the strategy, and still blocks HTTP sub-requests to private addresses', async () => {
    // Prepare
    const before = forbidden.connections;

    // Act
    const shot = await service().capture({
      url: `${pages.origin}/http-subresources?target=${encodeURIComponent(`http://127.0.0.1:${forbidden.port}`)}`,
      deviceType: 'mobile',
      colorScheme: 'light',
      forceRefresh: false,
    });

    // Assess
    expect(shot).toMatchObject({ cached: false, strategy: 'remote-cdp', deviceType: 'mobile' });
    expect(pngSize(shot.png)).toEqual({ width: 750, height: 1334 });
    // Interception covers the page's HTTP(S) requests; WebSockets and new windows, which page
    // interception does not see, are the remote browser's egress rules to contain (docs/capture.md, "Remote browser").
    expect(forbidden.connections).toBe(before);
  });

  it('reconnects when the connection dropped between captures', async () => {
    // Prepare
    await service().capture({ url: `${pages.origin}/plain?title=remote-1`, deviceType: 'desktop', colorScheme: 'light', forceRefresh: false });
    const first = backend.current()!;
    await first.disconnect();

    // Act
    const shot = await service().capture({ url: `${pages.origin}/plain?title=remote-2`, deviceType: 'desktop', colorScheme: 'light', forceRefresh: false });

    // Assess
    expect(shot.strategy).toBe('remote-cdp');
    expect(backend.current()).not.toBe(first);
    expect(remote.connected).toBe(true);
  });
});
