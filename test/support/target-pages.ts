/**
 * Pages for capture tests and the bench, served on 127.0.0.1 the way an outside web site would
 * serve them, and a "forbidden" listener that only counts who reaches it. The page server's port
 * is the one UNSAFE_TEST_LOOPBACK_PORTS opens; the listener's never is, so a single connection
 * to it is an SSRF escape.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sharp from 'sharp';

export interface PageHit {
  path: string;
  headers: IncomingHttpHeaders;
}

export interface TargetPages {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** Every request the server answered, in order. */
  hits: PageHit[];
  /** Reports the capture tests' pages sent back (`/report?...`). */
  reports: URLSearchParams[];
  close(): Promise<void>;
}

export interface Listener {
  origin: string;
  port: number;
  /** TCP connections accepted so far (a connection is enough to count as reached). */
  readonly connections: number;
  close(): Promise<void>;
}

const html = (res: ServerResponse, body: string, headers: Record<string, string> = {}) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(`<!doctype html><html><head><meta charset="utf-8"></head>${body}</html>`);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Green when a page is complete; the bench and tests look for it in the PNG. */
export const COMPLETE_COLOUR = { r: 0, g: 160, b: 0 } as const;
const GREEN = 'rgb(0,160,0)';

/** Colours of the capture-option pages, each used by one thing only, so a pixel names what drew it. */
export const OPTION_COLOURS = {
  header: [220, 0, 0],
  hidden: [255, 200, 0],
  box: [0, 128, 128],
  lazyImage: [0, 0, 255],
  scrollLoaded: [200, 0, 200],
  app: [255, 128, 0],
} as const satisfies Record<string, readonly [number, number, number]>;
const css = (colour: readonly number[]) => `rgb(${colour.join(',')})`;
/** Where the options page puts its element, in CSS pixels. */
export const OPTIONS_BOX = { x: 100, y: 1500, width: 320, height: 180 } as const;
export const OPTIONS_PAGE_HEIGHT = 4000;

/** A 1×1 PNG, for sub-resources. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

/** Starts the page server. */
export async function startTargetPages(): Promise<TargetPages> {
  const hits: PageHit[] = [];
  const reports: URLSearchParams[] = [];
  const sockets = new Set<Socket>();
  const counters = new Map<string, number>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://pages.test');
    hits.push({ path: `${url.pathname}${url.search}`, headers: req.headers });
    void route(url, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function route(url: URL, res: ServerResponse): Promise<void> {
    const q = url.searchParams;
    switch (url.pathname) {
      // Solid colours: white in light mode, black in dark mode.
      case '/scheme':
        return html(
          res,
          '<style>html,body{margin:0;height:100%;background:#fff;color:#000}@media (prefers-color-scheme: dark){html,body{background:#000;color:#fff}}</style><body><h1>scheme</h1></body>',
        );
      case '/plain':
        return html(res, `<body style="margin:0;background:${GREEN}"><h1>${q.get('title') ?? 'plain'}</h1></body>`);
      // The document never finishes, so `load` never fires.
      case '/never':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.write('<!doctype html><html><body><h1>still loading');
        return;
      // The first byte of the answer only after `delay` ms (a slow server, not a slow page).
      case '/late':
        await sleep(Number(q.get('delay') ?? 0));
        return html(res, `<body style="margin:0;background:${GREEN}"><h1>late</h1></body>`);
      // Accepts the request and never answers it.
      case '/silent':
        return;
      // The whole document arrives, but its parser waits for ever on a script that never does.
      case '/parser-stall':
        return html(
          res,
          `<body style="margin:0"><div style="height:300px;background:${GREEN}"></div><script src="/silent?script"></script><p>never parsed</p></body>`,
        );
      // Different on every load: shows whether an answer came from the cache or a new capture.
      case '/counter': {
        const key = q.get('key') ?? '';
        counters.set(key, (counters.get(key) ?? 0) + 1);
        return html(res, `<body style="margin:0;background:#fff"><h1>load number ${counters.get(key)}</h1></body>`);
      }
      case '/redirect':
        res.writeHead(302, { location: q.get('to') ?? '/plain' });
        return void res.end();
      // Loads everything at `target` that a page can reach out to; the page itself is green.
      case '/subresources': {
        const target = q.get('target') ?? '';
        const ws = target.replace(/^http/, 'ws');
        return html(
          res,
          `<body style="margin:0;background:${GREEN}"><h1>sub-resources</h1>
          <img src="${target}/img.png"><link rel="stylesheet" href="${target}/style.css"><iframe src="${target}/frame"></iframe>
          <script>
            fetch('${target}/fetch').catch(() => {});
            try { new WebSocket('${ws}/socket'); } catch {}
            try { new EventSource('${target}/events'); } catch {}
            navigator.sendBeacon && navigator.sendBeacon('${target}/beacon', 'x');
            new Worker(URL.createObjectURL(new Blob(["fetch('${target}/worker').catch(() => {})"])));
            window.open('${target}/popup');
          </script></body>`,
        );
      }
      // Only what CDP request interception can see (no WebSocket): for a browser without our proxy.
      case '/http-subresources': {
        const target = q.get('target') ?? '';
        return html(
          res,
          `<body style="margin:0;background:${GREEN}"><h1>http sub-resources</h1>
          <img src="${target}/img.png"><link rel="stylesheet" href="${target}/style.css"><iframe src="${target}/frame"></iframe>
          <script>fetch('${target}/fetch').catch(() => {});</script></body>`,
        );
      }
      // Leaves a cookie and storage behind; the next capture of /report shows whether they survived.
      case '/stateful':
        return html(
          res,
          `<body><script>
            document.cookie = 'easel_probe=1; max-age=3600; path=/';
            localStorage.setItem('easel_probe', '1');
            sessionStorage.setItem('easel_probe', '1');
          </script></body>`,
          { 'set-cookie': 'easel_server_probe=1; Max-Age=3600; Path=/' },
        );
      case '/report':
        return html(
          res,
          `<body><script>
            const state = new URLSearchParams({ cookie: document.cookie, local: localStorage.getItem('easel_probe') ?? '', session: sessionStorage.getItem('easel_probe') ?? '' });
            fetch('/collect?' + state).catch(() => {});
          </script></body>`,
        );
      case '/collect':
        reports.push(q);
        res.writeHead(204);
        return void res.end();
      case '/data':
        await sleep(Number(q.get('delay') ?? 0));
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"ok":true}');
      case '/pixel.png':
        await sleep(Number(q.get('delay') ?? 0));
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end(PIXEL);
      case '/hang':
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(':\n\n');
        return;
      // Wait-strategy pages: each turns green only once its content is really there.
      case '/wait/static':
        return html(
          res,
          `<body style="margin:0;background:${GREEN}"><h1>static</h1>${[1, 2, 3, 4].map((n) => `<img src="/pixel.png?delay=30&n=${n}">`).join('')}</body>`,
        );
      case '/wait/xhr':
        return html(
          res,
          `<body style="margin:0;background:#fff"><h1>xhr</h1><script>
            fetch('/data?delay=150').then(() => { document.body.style.background = '${GREEN}'; });
          </script></body>`,
        );
      case '/wait/after-load':
        return html(
          res,
          `<body style="margin:0;background:#fff"><h1>after load</h1><script>
            addEventListener('load', () => setTimeout(() => fetch('/data?delay=100').then(() => { document.body.style.background = '${GREEN}'; })));
          </script></body>`,
        );
      case '/wait/long-poll':
        return html(
          res,
          `<body style="margin:0;background:${GREEN}"><h1>long poll</h1><script>
            fetch('/hang').catch(() => {});
          </script></body>`,
        );
      // A long page as real sites build them: a sticky header, a block to hide, an element below
      // the fold, an image the browser loads lazily and content a script adds when scrolled to.
      case '/options':
        return html(
          res,
          `<style>body{margin:0;background:#fff;height:${OPTIONS_PAGE_HEIGHT}px;position:relative}
            header{position:sticky;top:0;height:100px;background:${css(OPTION_COLOURS.header)};z-index:1}
            .promo{position:absolute;left:600px;top:300px;width:300px;height:150px;background:${css(OPTION_COLOURS.hidden)}}
            #box{position:absolute;left:${OPTIONS_BOX.x}px;top:${OPTIONS_BOX.y}px;width:${OPTIONS_BOX.width}px;height:${OPTIONS_BOX.height}px;background:${css(OPTION_COLOURS.box)}}
            img{position:absolute;left:600px;top:3000px;width:400px;height:300px}
            #feed{position:absolute;left:1200px;top:3400px;width:400px;height:300px}</style>
          <body><header></header><div class="promo"><span style="visibility:visible">promo</span></div><div id="box"></div>
          <img loading="lazy" src="/colour.png?c=${OPTION_COLOURS.lazyImage.join(',')}"><div id="feed"></div>
          <script>
            new IntersectionObserver((entries, observer) => {
              if (!entries.some((entry) => entry.isIntersecting)) return;
              observer.disconnect();
              fetch('/data?delay=100').then(() => { document.getElementById('feed').style.background = '${css(OPTION_COLOURS.scrollLoaded)}'; });
            }).observe(document.getElementById('feed'));
          </script></body>`,
        );
      // A client-rendered app: an empty page whose script draws #app `after` ms later, with no request.
      case '/app':
        return html(
          res,
          `<body style="margin:0;background:#fff"><script>
            setTimeout(() => { const app = document.createElement('div'); app.id = 'app';
              app.style.cssText = 'width:400px;height:300px;background:${css(OPTION_COLOURS.app)}'; document.body.append(app); }, ${Number(q.get('after') ?? 0)});
          </script></body>`,
        );
      // `height` CSS pixels tall, green at the top and blue at the bottom.
      case '/tall': {
        const height = Number(q.get('height') ?? 30_000);
        return html(res, `<body style="margin:0;height:${height}px;background:linear-gradient(${GREEN} 50%, ${css(OPTION_COLOURS.lazyImage)} 50%)"></body>`);
      }
      // A 16×16 PNG of the colour `c` ("r,g,b").
      case '/colour.png': {
        const [r, g, b] = (q.get('c') ?? '0,0,0').split(',').map(Number);
        const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: r!, g: g!, b: b! } } })
          .png()
          .toBuffer();
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end(png);
      }
      default:
        res.writeHead(404, { 'content-type': 'text/plain' });
        return void res.end('not found');
    }
  }

  const port = await listen(server);
  return { origin: `http://127.0.0.1:${port}`, port, hits, reports, close: closer(server, sockets) };
}

/** Starts a listener that answers nothing useful and counts every connection it accepts. */
export async function startListener(): Promise<Listener> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => res.end('reached'));
  server.on('connection', (socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return connections;
    },
    close: closer(server, sockets),
  };
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23), after checking the signature. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const bytes = Buffer.from(png);
  if (!bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG');
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
