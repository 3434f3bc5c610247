/**
 * The report each capture carries (`report` in the answer): the page's status, its images and
 * fonts, bot challenges, and the requests refused; judged on local pages and kept in the cache.
 */
import type { ServerResponse } from 'node:http';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { call, freshClient } from '../support/client.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { serveOnLoopback } from '../support/loopback-server.ts';

const ARTICLE = `<p>${'A paragraph of an ordinary article about release notes and the screenshots in them. '.repeat(40)}</p>`;
const image = await sharp({ create: { width: 40, height: 40, channels: 3, background: { r: 0, g: 90, b: 200 } } })
  .png()
  .toBuffer();

/** The pages; a refused address is one port the guard never opens. */
function pageAt(path: string, refused: string): { status: number; body: string } | undefined {
  const img = (src: string, top: number) => `<img src="${src}" style="position:absolute;left:20px;top:${top}px;width:40px;height:40px">`;
  switch (path) {
    case '/images':
      // Two images on the first screen (one broken), one far below it.
      return {
        status: 200,
        body: `<body style="margin:0;height:5000px">${img('/image.png', 10)}${img('/missing.png', 80)}${img('/image.png?below', 4000)}</body>`,
      };
    case '/refused':
      return { status: 200, body: `<body>${img(`${refused}/tracker.png`, 10)}</body>` };
    case '/gone':
      return { status: 404, body: '<body><h1>Not found</h1></body>' };
    case '/challenge':
      return { status: 403, body: '<head><title>Just a moment...</title></head><body><div id="challenge-running">Checking your browser</div></body>' };
    case '/form':
      return { status: 200, body: `<body>${ARTICLE}<form><div class="g-recaptcha"></div></form></body>` };
    case '/font':
      // A web font asked for after load, whose file never arrives (before load it would hold the load event).
      return {
        status: 200,
        body: `<body>Text in a late font<script>addEventListener('load', () => { const face = new FontFace('Late', 'url(/late.woff2)'); document.fonts.add(face); face.load(); })</script></body>`,
      };
    case '/captcha':
      return { status: 200, body: '<body><div class="h-captcha"></div><p>Verify you are human.</p></body>' };
    default:
      return undefined;
  }
}

async function startReportPages() {
  const held = new Set<ServerResponse>();
  let refused = '';
  const pages = await serveOnLoopback((req, res) => {
    const path = new URL(req.url ?? '/', 'http://pages').pathname;
    if (path === '/late.woff2') return void held.add(res);
    if (path === '/image.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(image);
    const page = pageAt(path, refused);
    if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('none');
    res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html>${page.body}</html>`);
  });
  refused = `http://127.0.0.1:${pages.port + 1}`;
  return {
    ...pages,
    close: () => {
      for (const res of held) res.destroy();
      return pages.close();
    },
  };
}

const suite = useRuntimeWithPages(startReportPages);
const capture = (body: Record<string, unknown>) => call(suite.runtime.url, '/api/screenshot', { body, from: freshClient() });

describe('POST /api/screenshot: report', () => {
  it('counts the images within the picture and those that loaded, with the page status and fonts', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/images` });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.report).toEqual({
      status: 200,
      images: { found: 2, loaded: 1 },
      fontsReady: true,
      requests: { total: 4, refused: 0, blockedAds: 0 },
      settled: true,
    });
  });

  it('counts the image below the first screen too when the picture is the whole page', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/images`, fullPage: true });

    // Assess
    expect(response.body.report).toMatchObject({ images: { found: 3, loaded: 2 } });
  });

  it('says when web fonts had not loaded by the time of the picture', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/font` });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.report).toMatchObject({ fontsReady: false });
  });

  it('says the page was an error page by its status', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/gone` });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.report).toMatchObject({ status: 404 });
    expect(response.body.report).not.toHaveProperty('challenge');
  });

  it.each([
    ['a Cloudflare interstitial', '/challenge', 'cloudflare'],
    ['a page that is mostly a captcha', '/captcha', 'captcha'],
  ])('names %s as a bot challenge', async (_name, path, challenge) => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}${path}` });

    // Assess
    expect(response.body.report).toMatchObject({ challenge });
  });

  it('does not call an article with a captcha in its form a challenge', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/form` });

    // Assess
    expect(response.body.report).toMatchObject({ status: 200 });
    expect(response.body.report).not.toHaveProperty('challenge');
  });

  it('counts the requests the guard refused', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/refused` });

    // Assess
    expect(response.body.report).toMatchObject({ images: { found: 1, loaded: 0 }, requests: { total: 2, refused: 1, blockedAds: 0 } });
  });

  it('answers a cached capture with the report of the capture it keeps', async () => {
    // Prepare
    const first = await capture({ url: `${suite.pages.origin}/images?cache` });

    // Act
    const again = await capture({ url: `${suite.pages.origin}/images?cache` });

    // Assess
    expect([first.body.cached, again.body.cached]).toEqual([false, true]);
    expect(again.body.report).toEqual(first.body.report);
  });
});
