/**
 * Service workers, SharedWorkers and popups escape a page's request interception: on every backend
 * they must reach nothing, and the running browser must not be told to let popups through.
 */
import { readFileSync } from 'node:fs';
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachingResolver, systemResolver } from '#shared/net/guard.ts';
import { LocalChromium, RemoteBrowser, chromiumArgs } from '#shared/services/capture/browsers.ts';
import type { BrowserBackend } from '#shared/services/capture/browsers.ts';
import { createScreenshotService } from '#shared/services/capture/screenshot-service.ts';
import { createTargetGuard } from '#shared/services/capture/target.ts';
import { blockWorkers } from '#shared/services/capture/workers.ts';
import { startListener } from '../support/target-pages.ts';
import type { Listener } from '../support/target-pages.ts';
import { startStrayPages } from '../support/stray-pages.ts';
import type { StrayPages } from '../support/stray-pages.ts';

let strays: StrayPages;
let forbidden: Listener;
let remote: Browser;
const backends: Record<string, BrowserBackend> = {};

const local = (singleProcess: boolean) =>
  new LocalChromium({
    singleProcess,
    egress: { policy: { loopbackPorts: [strays.port] }, resolve: cachingResolver(systemResolver, 30_000), connectTimeoutMs: 5_000 },
    protocolTimeoutMs: 20_000,
  });

beforeAll(async () => {
  strays = await startStrayPages();
  forbidden = await startListener();
  // The remote browser is launched as an operator would, with our command line and no egress proxy.
  remote = await puppeteer.launch({
    executablePath: await chromium.executablePath(),
    headless: 'shell',
    args: await chromiumArgs({ singleProcess: false }),
    ignoreDefaultArgs: true,
  });
  backends['local, multi-process'] = local(false);
  backends['local, single-process'] = local(true);
  backends.remote = new RemoteBrowser({ endpoint: remote.wsEndpoint(), connectTimeoutMs: 5_000, protocolTimeoutMs: 20_000 });
});

afterAll(async () => {
  await Promise.all(Object.values(backends).map((backend) => backend.close()));
  await remote?.close();
  await strays?.close();
  await forbidden?.close();
});

const BACKENDS = ['local, multi-process', 'local, single-process', 'remote'] as const;

describe('LocalChromium', () => {
  it.each([false, true])('runs without --disable-popup-blocking on its command line (single-process: %s)', async (singleProcess) => {
    // Prepare
    const backend = singleProcess ? backends['local, single-process']! : backends['local, multi-process']!;

    // Act
    const lease = await backend.acquire();
    lease.release();

    // Assess: what was spawned, and what the running process holds
    const child = lease.browser.process()!;
    const running = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    expect(running).toContain('--disable-quic');
    expect(running).not.toContain('--disable-popup-blocking');
    expect(child.spawnargs).not.toContain('--disable-popup-blocking');
  });
});

describe.each(BACKENDS)('a capture on the %s backend', (name) => {
  it('lets no service worker, SharedWorker or popup of the page reach anything', async () => {
    // Prepare
    const service = createScreenshotService({
      browsers: backends[name]!,
      guard: createTargetGuard({ loopbackPorts: [strays.port] }, cachingResolver(systemResolver, 30_000)),
      cache: { get: async () => undefined, put: async () => undefined, purgeUrl: async () => 0, purgeAll: async () => 0 },
      timeoutMs: 15_000,
      cacheTtlSeconds: 60,
    });
    const before = { reports: strays.reports.length, ran: strays.ran.length, connections: forbidden.connections };

    // Act: #done shows once the page knows what became of each
    const shot = await service.capture({
      url: `${strays.origin}${strays.path(forbidden.origin)}`,
      deviceType: 'desktop',
      colorScheme: 'light',
      forceRefresh: true,
      waitForSelector: '#done',
    });

    // Assess: blockWorkers left the page neither worker nor window
    expect(shot.cached).toBe(false);
    expect(strays.reports.slice(before.reports)).toEqual([{ sw: 'refused:SecurityError', shared: 'absent', popup: 'null' }]);
    expect(strays.ran.slice(before.ran)).toEqual([]);
    expect(forbidden.connections).toBe(before.connections);
  });
});

describe('containment of strays', () => {
  // Each layer alone: the browser's (every page of a backend) and blockWorkers' in the page. The
  // browser alone holds neither a SharedWorker's script nor a popup's document surely (docs/security.md):
  // its row leaves the first out and lets the popup run, as long as nothing it asks for gets through.
  const layers = BACKENDS.flatMap((name) => [
    [name, 'the browser alone', false, { sw: 'refused:TypeError', popup: expect.stringMatching(/^(closed|ran)$/) }] as const,
    [name, 'blockWorkers', true, { sw: 'refused:SecurityError', shared: 'absent', popup: 'null' }] as const,
  ]);
  it.each(layers)('on the %s backend, %s lets no service worker, SharedWorker or popup reach anything', async (name, _layer, inPage, seen) => {
    // Prepare
    const lease = await backends[name]!.acquire();
    const context = lease.isolation === 'context' ? await lease.browser.createBrowserContext() : lease.browser.defaultBrowserContext();
    const page = await context.newPage();
    const before = { reports: strays.reports.length, ran: strays.ran.length, connections: forbidden.connections };

    try {
      // Act
      if (inPage) await blockWorkers(page);
      await page.goto(`${strays.origin}${strays.path(forbidden.origin)}`);
      await page.waitForSelector('#done');

      // Assess
      expect(strays.reports.slice(before.reports)).toMatchObject([seen]);
      expect(strays.ran.slice(before.ran).filter((from) => inPage || from !== 'shared')).toEqual([]);
      // With no egress proxy (remote), a SharedWorker the browser alone let out could reach the target.
      if (inPage || name !== 'remote') expect(forbidden.connections).toBe(before.connections);
    } finally {
      await (lease.isolation === 'context' ? context.close() : page.close());
      lease.release();
    }
  });
});
