/**
 * Pages for redaction tests and the bench, served on 127.0.0.1 (and 127.0.0.2 for frames of another
 * site): the corpus one entry per band at known heights, the shapes text takes in a page (wrapped,
 * split over elements, shadow DOM, a frame, form fields), the ways text is drawn, and a tall dashboard.
 */
import type { ServerResponse } from 'node:http';
import { listenPair } from './listen-pair.ts';
import { CORPUS } from './redaction-corpus.ts';
import { drawnFrame, drawnPage } from './redaction-drawn.ts';

export interface RedactionPages {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** http://127.0.0.2:<port>: another site, for frames. */
  second: string;
  port: number;
  close(): Promise<void>;
}

/** Corpus entries are drawn at 16 px monospace, 20 px a line, each in a band of its lines + 10 px. */
export const LINE_PX = 20;
export const CORPUS_TOP = 10;

/** Each corpus entry's band, in CSS px from the top of the page. */
export const CORPUS_BANDS: { top: number; height: number }[] = [];
for (const entry of CORPUS) {
  const last = CORPUS_BANDS.at(-1);
  CORPUS_BANDS.push({ top: last ? last.top + last.height : CORPUS_TOP, height: entry.line.split('\n').length * LINE_PX + 10 });
}

export const TALL_PAGE_PX = 12_000;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const html = (res: ServerResponse, body: string) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>body{margin:0;background:#fff;color:#123;font:16px/20px monospace}</style></head><body>${body}</body></html>`,
  );
};

function corpusPage(): string {
  return CORPUS.map(
    (entry, i) => `<div style="position:absolute;left:20px;top:${CORPUS_BANDS[i]!.top}px;white-space:pre">${escapeHtml(entry.line)}</div>`,
  ).join('');
}

/** One of each shape; every finding is an e-mail address or a card, so the test knows what to expect. */
function shapesPage(): string {
  return [
    '<p id="wrapped" style="position:absolute;left:20px;top:20px;width:90px;word-break:break-all">wrapped.address.long@example.com</p>',
    '<p id="split" style="position:absolute;left:300px;top:20px">Mail: <b>split</b><i>.user@</i>example.com</p>',
    '<div id="host" style="position:absolute;left:700px;top:20px"></div>',
    '<script>document.getElementById("host").attachShadow({mode:"open"}).innerHTML = "<p>shadow@example.com</p>";</script>',
    '<iframe src="/frame" style="position:absolute;left:20px;top:300px;width:400px;height:120px;border:5px solid #888;padding:7px"></iframe>',
    '<input id="field" value="input@example.com" style="position:absolute;left:500px;top:300px;width:300px;font:16px monospace;border:2px solid #888;padding:4px;background:#fff">',
    '<textarea style="resize:none;position:absolute;left:900px;top:300px;width:300px;height:60px;font:16px monospace;border:2px solid #888;padding:4px;background:#fff">Card 4111 1111 1111 1111</textarea>',
    '<p style="position:absolute;left:20px;top:600px">Nothing here: order 2024-000123, v1.2.3, 12:30:45</p>',
  ].join('');
}

/** A dashboard of rows down to 12,000 px, a finding in every tenth row. */
function tallPage(): string {
  const rows: string[] = [];
  for (let i = 0; i < TALL_PAGE_PX / 40; i += 1) {
    const cell =
      i % 10 === 0 ? `customer-${i}@example.com, 203.0.113.${i % 250}` : `Order ${100000 + i} shipped 2024-03-${String((i % 28) + 1).padStart(2, '0')}`;
    rows.push(`<div style="height:40px;border-bottom:1px solid #ddd;box-sizing:border-box;padding:10px 20px">Row ${i}: ${cell}</div>`);
  }
  return rows.join('');
}

/** A typical dashboard of one screen and a half: a customer table and a log, a few findings among many look-alikes. */
function dashboardPage(): string {
  const rows: string[] = [];
  for (let i = 0; i < 40; i += 1) {
    const contact = i % 4 === 0 ? `client${i}@example.com` : i % 4 === 1 ? `+44 20 7946 ${String(1000 + i).slice(-4)}` : `Order #${4155550000 + i}`;
    rows.push(
      `<tr><td>${i}</td><td>Customer ${i}</td><td>${contact}</td><td>2024-03-${String((i % 28) + 1).padStart(2, '0')}</td><td>v1.${i}.0</td><td>$${(i * 37.5).toFixed(2)}</td></tr>`,
    );
  }
  const log = Array.from({ length: 20 }, (_, i) => `<li>12:${String(i).padStart(2, '0')}:05 request from 198.51.100.${i} took ${20 + i} ms</li>`).join('');
  return `<h1 style="margin:20px">Customers</h1><table style="margin:20px;border-collapse:collapse">${rows.join('')}</table><ul>${log}</ul>`;
}

/**
 * Text that changes while the capture settles, after redaction has read it ahead: a finding filled
 * in from a slow fetch, and two blocks that become one inline run, joining an address.
 */
function latePage(): string {
  return [
    '<style>.apart span{display:block}</style>',
    '<p style="position:absolute;left:20px;top:20px">early@example.com</p>',
    '<p id="late" style="position:absolute;left:20px;top:80px">Loading</p>',
    '<div id="joined" class="apart" style="position:absolute;left:20px;top:140px"><span>joined.user</span><span>@example.com</span></div>',
    '<script>addEventListener("load", () => fetch("/late-text").then((r) => r.text()).then((text) => {',
    'document.getElementById("late").textContent = text; document.getElementById("joined").className = ""; }));</script>',
  ].join('');
}

// A 1×1 PNG.
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * Media drawn in the first screen: a loaded image, a canvas, a video, an SVG image; not drawn
 * there: a broken image, a hidden canvas, an image of opacity 0, and an image below the first screen.
 */
const MEDIA_PAGE = [
  '<img src="/pixel.png" width="100" height="100">',
  '<canvas width="100" height="100"></canvas>',
  '<video width="100" height="100"></video>',
  '<svg width="100" height="100"><image href="/pixel.png" width="100" height="100"/></svg>',
  '<img src="/missing.png" width="100" height="100">',
  '<canvas width="100" height="100" style="visibility:hidden"></canvas>',
  '<img src="/pixel.png" width="100" height="100" style="opacity:0">',
  '<img src="/pixel.png" width="100" height="100" style="position:absolute;left:0;top:2000px">',
].join('');

/** A frame of another site inside a border and padding, holding a frame of the first site: with site isolation, each its own process. */
const isolatedPage = (second: string) =>
  '<p style="position:absolute;left:20px;top:20px;margin:0;color:#00f;font:20px sans-serif">Nothing here but frames</p>' +
  `<iframe src="${second}/isolated-frame" style="position:absolute;left:100px;top:100px;width:600px;height:200px;border:5px solid #888;padding:7px"></iframe>`;
const isolatedFrame = (first: string) =>
  '<p style="margin:4px;color:#f00;font:20px sans-serif">outer@example.com</p>' +
  `<iframe src="${first}/isolated-inner" style="margin:10px;width:400px;height:60px;border:0"></iframe>`;

/**
 * An address in red that a CSS animation moves between three places every few ms, one by its
 * position (main thread) and one by a transform (the compositor): a read and the picture taken
 * a moment apart would find them in different places.
 */
const HOPPING_PAGE =
  '<style>@keyframes hop { 0% { left: 20px } 33% { left: 620px } 66% { left: 1220px } } @keyframes slide { 0% { transform: none } 33% { transform: translateX(600px) } 66% { transform: translateX(1200px) } }' +
  '.hop { position: absolute; margin: 0; font: 20px monospace; color: #f00 }</style>' +
  '<p class="hop" style="top:20px;animation:hop 45ms steps(1) infinite">hop@example.com</p>' +
  '<p class="hop" style="top:80px;left:20px;animation:slide 45ms steps(1) infinite">slide@example.com</p>';

/** An address in red whose text a timer rewrites every few ms, for as long as the page is open. */
const TICKING_PAGE =
  '<p id="tick" style="position:absolute;left:20px;top:20px;margin:0;font:16px monospace;color:#f00">tick0@example.com</p>' +
  '<script>let n = 0; setInterval(() => { document.getElementById("tick").textContent = "tick" + ++n + "@example.com"; }, 1);</script>';

export async function startRedactionPages(): Promise<RedactionPages> {
  let second = '';
  const { port, close } = await listenPair(() => (req, res) => {
    const url = new URL(req.url ?? '/', 'http://pages.test');
    const path = url.pathname;
    if (path === '/corpus') return html(res, corpusPage());
    if (path === '/shapes') return html(res, shapesPage());
    if (path === '/frame') return html(res, '<p style="margin:10px">frame@example.com</p>');
    if (path === '/tall') return html(res, tallPage());
    if (path === '/dashboard') return html(res, dashboardPage());
    if (path === '/late') return html(res, latePage());
    if (path === '/ticking') return html(res, TICKING_PAGE);
    if (path === '/hopping') return html(res, HOPPING_PAGE);
    if (path === '/drawn') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(drawnPage(second));
    if (path === '/drawn-frame') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(drawnFrame(url.searchParams));
    if (path === '/media') return html(res, MEDIA_PAGE);
    if (path === '/pixel.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL_PNG);
    if (path === '/isolated') return html(res, isolatedPage(second));
    if (path === '/isolated-frame') return html(res, isolatedFrame(`http://127.0.0.1:${port}`));
    if (path === '/isolated-inner') return html(res, '<p style="margin:4px;color:#f00;font:20px sans-serif">inner@example.com</p>');
    if (path === '/late-text') return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('late@example.com'), 400);
    res.writeHead(404).end();
  });
  second = `http://127.0.0.2:${port}`;
  return { origin: `http://127.0.0.1:${port}`, second, port, close };
}
