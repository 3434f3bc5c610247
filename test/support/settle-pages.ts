/**
 * Pages built the way apps are (issue 41): content fetched or drawn after load, an endless feed, a
 * font and an image that never arrive, a ticking chart, a link and a redirect to a second origin
 * (127.0.0.2, same port), a page that echoes its headers, and a server that refuses a large head.
 */
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import { listenPair } from './listen-pair.ts';

export const GREEN = [0, 160, 0] as const;
export const BLUE = [0, 0, 200] as const;
export const RED = [200, 0, 0] as const;
/** Rows of the list pages: how many, each this tall (CSS px). */
export const LIST_ROWS = 40;
export const ROW_PX = 120;
/** How late the list arrives, and the chart is drawn, after load. */
export const LATE_MS = { list: 300, chart: 500 } as const;

const colour = (rgb: readonly number[]) => `rgb(${rgb.join(',')})`;
const rows = (count: number, rgb: readonly number[]) =>
  Array.from({ length: count }, (_, index) => `<div style="height:${ROW_PX - 4}px;margin-bottom:4px;background:${colour(rgb)}">row ${index}</div>`).join('');

const PAGES: Record<string, string> = {
  // Settled at load: text and four images, nothing after.
  '/static': `<h1>Release notes</h1>${'<p>An ordinary paragraph of an ordinary page, with nothing left to do once it has loaded.</p>'.repeat(20)}${[0, 1, 2, 3].map((index) => `<img src="/image.svg?${index}" width="200" height="120">`).join('')}`,
  // The list arrives by fetch, answered late; its last row is blue.
  '/app': `<div id="list"></div><script>fetch('/api/list').then((r) => r.text()).then((t) => (document.getElementById('list').innerHTML = t));</script>`,
  // The fetch starts from a timer after load.
  '/app-timer': `<div id="list"></div><script>addEventListener('load', () => setTimeout(() => fetch('/api/list').then((r) => r.text()).then((t) => (document.getElementById('list').innerHTML = t)), ${LATE_MS.list}));</script>`,
  // A feed that loads 10 more rows whenever its end shows, for ever.
  '/feed': `<div id="list"></div><div id="end" style="height:1px"></div><script>
    let next = 0;
    const more = () => fetch('/api/feed?from=' + next).then((r) => r.text()).then((t) => { document.getElementById('list').insertAdjacentHTML('beforeend', t); next += 10; });
    more();
    new IntersectionObserver((entries) => { if (entries.some((entry) => entry.isIntersecting)) more(); }).observe(document.getElementById('end'));
  </script>`,
  // A web font and an image whose servers never answer; the text beside them is green.
  '/stalled-font': `<style>@font-face { font-family: Never; src: url(/never/font.woff2); }</style>
    <p style="font: 40px Never, sans-serif">In a font that never arrives</p><div style="width:400px;height:200px;background:${colour(GREEN)}"></div>`,
  '/stalled-image': `<div style="width:400px;height:200px;background:${colour(GREEN)}"></div><img src="/never/image.png" width="100" height="100">`,
  // A chart drawn once, from a timer after load.
  '/chart': `<canvas id="chart" width="600" height="300"></canvas><script>addEventListener('load', () => setTimeout(() => {
    const g = document.getElementById('chart').getContext('2d'); g.fillStyle = '${colour(GREEN)}'; g.fillRect(0, 0, 600, 300);
  }, ${LATE_MS.chart}));</script>`,
  // A timer given code as a string, which the watcher cannot see run.
  '/string-timer': `<div style="width:400px;height:200px;background:${colour(GREEN)}"></div><script>setTimeout('document.body.dataset.ran = "yes"', 50);</script>`,
  // A chart that never stops ticking.
  '/ticking': `<canvas id="chart" width="600" height="300"></canvas><script>let tick = 0; setInterval(() => {
    const g = document.getElementById('chart').getContext('2d'); g.fillStyle = tick++ % 2 ? '${colour(GREEN)}' : '${colour(BLUE)}'; g.fillRect(0, 0, 600, 300);
  }, 100);</script>`,
};

export interface SettlePages {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** http://127.0.0.2:<port> */
  second: string;
  port: number;
  /** Every port captures must reach: the pair's and the strict server's. */
  ports: number[];
  /** The request heads the target received, by path. */
  heads: Map<string, Record<string, string | string[] | undefined>>;
  /** A server that reads a request head and answers 431 once it is over 4 KiB, as nginx does at its limit. */
  strict: { origin: string; port: number };
  close(): Promise<void>;
}

const page = (res: ServerResponse, body: string, status = 200) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head><body style="margin:0">${body}</body></html>`,
  );
};

/** Answers 200 to a head up to 4 KiB and 431 past it, after reading the whole head, and closes gently. */
async function startStrictServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket: Socket) => {
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const status = head.length > 4096 ? '431 Request Header Fields Too Large' : '200 OK';
      const body = `<!doctype html><body style="margin:0;background:${colour(status.startsWith('431') ? RED : GREEN)};height:100vh"></body>`;
      socket.end(`HTTP/1.1 ${status}\r\ncontent-type: text/html\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

export async function startSettlePages(): Promise<SettlePages> {
  const heads = new Map<string, Record<string, string | string[] | undefined>>();
  const held = new Set<ServerResponse>();
  let second = '';
  const pair = await listenPair((host) => (req, res) => {
    const url = new URL(req.url ?? '/', 'http://pages.test');
    if (host === 'second') return page(res, `<div style="height:100vh;background:${colour(RED)}">not here</div>`, 404);
    heads.set(url.pathname, req.headers);
    if (url.pathname.startsWith('/never/')) return void held.add(res);
    if (url.pathname === '/api/list') return void setTimeout(() => res.end(rows(LIST_ROWS - 1, GREEN) + rows(1, BLUE)), LATE_MS.list);
    if (url.pathname === '/api/feed') return void setTimeout(() => res.end(rows(10, GREEN)), 50);
    if (url.pathname === '/link') return page(res, `<a id="away" href="${second}/elsewhere" style="font-size:40px">away</a>`);
    if (url.pathname === '/away') {
      res.writeHead(302, { location: `${second}/elsewhere` });
      return void res.end();
    }
    if (url.pathname === '/image.svg') {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      return void res.end(`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120"><rect width="200" height="120" fill="${colour(BLUE)}"/></svg>`);
    }
    if (url.pathname === '/echo') return page(res, `<div style="height:100vh;background:${colour(GREEN)}"></div>`);
    const body = PAGES[url.pathname];
    if (body === undefined) return page(res, 'none', 404);
    page(res, body);
  });
  const { port } = pair;
  const strict = await startStrictServer();
  const origin = `http://127.0.0.1:${port}`;
  second = `http://127.0.0.2:${port}`;
  return {
    origin,
    second,
    port,
    ports: [port, strict.port],
    heads,
    strict: { origin: `http://127.0.0.1:${strict.port}`, port: strict.port },
    async close() {
      for (const res of held) res.destroy();
      await Promise.all([pair.close(), new Promise((resolve) => strict.server.close(resolve))]);
    },
  };
}
