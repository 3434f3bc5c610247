/**
 * The browser of the end-to-end tests: the bundled Chromium (@sparticuz/chromium) driven by
 * puppeteer-core, as a user's browser would behave. @sparticuz/chromium's serverless flags
 * include --disable-web-security and --allow-running-insecure-content, with which no CORS, taint
 * or mixed-content assertion would prove anything: they are left out, and so is --single-process
 * (a Lambda necessity; a desktop browser isolates pages in their own processes).
 */
import { mkdir } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import type { Browser, Page } from 'puppeteer-core';
import { safeChromiumFlags } from '#shared/services/capture/browsers.ts';

/** Where the tests leave screenshots of the editor in use (git-ignored). */
export const TEST_OUTPUT = join(import.meta.dirname, '..', '..', 'test-output', 'e2e');

/**
 * Launches the e2e browser: headless shell, multi-process, web security on, drawing on the CPU as
 * the capture browser does; `extra` flags added.
 */
export async function launchBrowser(extra: readonly string[] = []): Promise<Browser> {
  return launchWith([...safeChromiumFlags({ singleProcess: false }), ...extra]);
}

/**
 * The e2e browser with site isolation on, as desktop Chrome and many remote browsers run: a frame
 * of another site gets a process (and a DevTools target) of its own. @sparticuz/chromium turns it off.
 */
export async function launchSiteIsolated(): Promise<Browser> {
  const flags = safeChromiumFlags({ singleProcess: false })
    .filter((flag) => flag !== '--disable-site-isolation-trials')
    .map((flag) =>
      flag.startsWith('--disable-features=')
        ? `--disable-features=${flag
            .slice('--disable-features='.length)
            .split(',')
            .filter((feature) => feature !== 'IsolateOrigins' && feature !== 'site-per-process')
            .join(',')}`
        : flag,
    );
  return launchWith([...flags, '--site-per-process']);
}

async function launchWith(flags: string[]): Promise<Browser> {
  return puppeteer.launch({
    executablePath: await chromium.executablePath(),
    headless: 'shell',
    args: await puppeteer.defaultArgs({ args: flags, headless: 'shell' }),
    protocolTimeout: 60_000,
  });
}

/** Saves a PNG of the page's viewport under test-output/e2e. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(TEST_OUTPUT, { recursive: true });
  const path = join(TEST_OUTPUT, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** A free loopback port, for a server that must know its own address before it starts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface OriginProxy {
  /** http://127.0.0.1:<port>: another origin (same site) serving the target's pages. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves `paths` (exact paths or prefixes ending in /) of `target` from a second origin, as a CDN
 * or another host name in front of the same deployment would: the editor page and its files come
 * from here, while the page calls the API on `target`. Everything else is 404, so a call that
 * forgot the API base fails.
 */
export async function startOriginProxy(target: string, paths: readonly string[]): Promise<OriginProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (req.method !== 'GET' || !paths.some((allowed) => (allowed.endsWith('/') && allowed !== '/' ? path.startsWith(allowed) : path === allowed))) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not served from this origin');
      return;
    }
    const forward = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: 'GET', headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    forward.end();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
