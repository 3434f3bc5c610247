/**
 * A browser at the local server while it starts, in the real browser: a page saying so that
 * reloads itself into what the server answers once ready, where a bare 503 left a blank page.
 */
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type LocalServer } from '#infra/local/server.ts';
import type { HttpHandler } from '#shared/http/handler.ts';
import { getHome } from '#shared/routes/endpoints.ts';
import { launchBrowser } from '../support/browser.ts';
import { SLOW } from './support/editor-page.ts';

let server: LocalServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, configuredBaseUrl: undefined });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the local server while it starts', SLOW, () => {
  it('shows a browser a page saying it is starting, which reloads itself into the answer once the server is ready', async () => {
    // Prepare
    const context = await browser.createBrowserContext();
    const page = await context.newPage();

    // Act: a navigation while starting, then the server ready with a page of its own
    const starting = await page.goto(`${server.url}/`);
    const shown = { status: starting?.status(), retryAfter: starting?.headers()['retry-after'], text: await page.$eval('body', (body) => body.innerText) };
    const api = await fetch(`${server.url}/api/v1/me`, { headers: { accept: 'application/json' } });
    await api.arrayBuffer();
    const ready: HttpHandler = async () => ({
      statusCode: 200,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: '<!doctype html><title>Ready</title><p>Ready',
    });
    server.serve({ routes: new Map([[getHome.operationId, ready]]), fallback: ready }, { streaming: false });
    await page.waitForFunction(() => document.title === 'Ready', SLOW);

    // Assess: words for people and a retry for the browser; an API client still gets a plain 503
    expect(shown).toEqual({
      status: 503,
      retryAfter: '1',
      text: 'Easel is starting…\n\nThe local server has not finished starting. This page tries again every second and shows the editor as soon as the server answers.',
    });
    expect(api.status).toBe(503);
    expect(api.headers.get('content-type') ?? '').not.toContain('text/html');
    await context.close();
  });
});
