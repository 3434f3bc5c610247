/**
 * A full page's scroll-through (scrollThrough in shared/services/capture/in-page.ts) in the
 * bundled Chromium: every screen's lazy loaders fire although each is held for one frame, and the
 * page it hands to the picture is opaque whatever transitions it has.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scrollThrough } from '#shared/services/capture/in-page.ts';
import { launchBrowser } from '../support/browser.ts';

/** 40 lazy images and 40 observed 5 px strips, 250 px apart below the first screen. */
const PLACES = Array.from({ length: 40 }, (_, index) => 1_500 + index * 250);
const LONG_PAGE = `<body style="margin:0;height:12000px;position:relative">
  ${PLACES.map((top, index) => `<img loading="lazy" src="/image.png?${index}" style="position:absolute;top:${top}px;left:0;width:50px;height:50px">`).join('')}
  ${PLACES.map((top) => `<div class="strip" style="position:absolute;top:${top + 100}px;left:100px;width:20px;height:5px"></div>`).join('')}
  <script>
    window.seen = 0;
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) { window.seen += 1; observer.unobserve(entry.target); }
    });
    document.querySelectorAll('.strip').forEach((strip) => observer.observe(strip));
  </script></body>`;

let browser: Browser;
let server: Server;
let origin: string;
let page: Page;

beforeAll(async () => {
  const image = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 0, g: 0, b: 255 } } })
    .png()
    .toBuffer();
  server = createServer((req, res) => {
    if (req.url?.startsWith('/image.png')) return void res.writeHead(200, { 'content-type': 'image/png' }).end(image);
    res.writeHead(200, { 'content-type': 'text/html' }).end(LONG_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(async () => {
  page = await browser.newPage();
  await page.setViewport({ width: 1920, height: 1080 });
});

afterEach(() => page.close());

describe('scrollThrough', () => {
  it("loads every lazy image and fires every observer on the way, not only the last screen's", async () => {
    // Prepare
    await page.goto(`${origin}/long`, { waitUntil: 'load' });

    // Act
    await page.evaluate(scrollThrough, 16_384);
    await page.waitForFunction('[...document.images].every((image) => image.complete)', { timeout: 5_000 });

    // Assess
    expect(await page.evaluate('({ seen: window.seen, loaded: [...document.images].filter((image) => image.naturalWidth > 0).length, top: scrollY })')).toEqual(
      {
        seen: PLACES.length,
        loaded: PLACES.length,
        top: 0,
      },
    );
  });

  it('hands back an opaque page when the page fades :root in and out', async () => {
    // Prepare
    await page.setContent(
      '<style>html { transition: opacity 2s } body { margin: 0; height: 3000px } div { height: 3000px; background: rgb(0, 0, 255) }</style><div></div>',
    );

    // Act
    const height = await page.evaluate(scrollThrough, 16_384);
    const png = await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: 1920, height }, captureBeyondViewport: true });

    // Assess
    expect([...(await sharp(png).extract({ left: 10, top: 10, width: 1, height: 1 }).raw().toBuffer())]).toEqual([0, 0, 255]);
  });
});
