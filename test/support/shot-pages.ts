/**
 * Pages for release shots, served on one port of 127.0.0.1 (the app) and 127.0.0.2 (another
 * origin), each recording what reached it: a plain page, a page whose box changes colour when
 * the test says, and a page green only with the login a source app's secret holds.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { listenPair } from './listen-pair.ts';

/** What the login sends; the gated page is green only with both. */
export const LOGIN = { header: ['X-Shot-Pass', 'shot-header-value'], cookie: ['shot_pass', 'shot-cookie-value'] } as const;
export const GREEN = [0, 160, 0] as const;
export const RED = [200, 0, 0] as const;
/** Where the changing page draws its box, in CSS pixels. */
export const BOX = { x: 100, y: 100, width: 200, height: 100 } as const;

export interface ShotHit {
  origin: 'app' | 'other';
  path: string;
  headers: IncomingHttpHeaders;
}

export interface ShotPages {
  /** http://127.0.0.1:<port> */
  app: string;
  /** http://127.0.0.2:<port> */
  other: string;
  port: number;
  hits: ShotHit[];
  /** The changing page's box colour. */
  box: { colour: string };
  close(): Promise<void>;
}

const rgb = (colour: readonly number[]) => `rgb(${colour.join(',')})`;
const html = (res: ServerResponse, body: string) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#fff">${body}</body></html>`);
};

function signedIn(headers: IncomingHttpHeaders): boolean {
  const cookie = (headers.cookie ?? '').split(/;\s*/).includes(`${LOGIN.cookie[0]}=${LOGIN.cookie[1]}`);
  return cookie && headers[LOGIN.header[0].toLowerCase()] === LOGIN.header[1];
}

export async function startShotPages(): Promise<ShotPages> {
  const hits: ShotHit[] = [];
  const box = { colour: 'rgb(0,0,255)' };
  let other = '';
  const { close, port } = await listenPair((which) => (req, res) => {
    const url = new URL(req.url ?? '/', 'http://pages.test');
    hits.push({ origin: which === 'first' ? 'app' : 'other', path: `${url.pathname}${url.search}`, headers: req.headers });
    switch (url.pathname) {
      case '/plain':
        return html(res, `<div style="position:fixed;inset:0;background:${rgb(GREEN)}"></div>`);
      case '/changing':
        return html(
          res,
          `<div style="position:absolute;left:${BOX.x}px;top:${BOX.y}px;width:${BOX.width}px;height:${BOX.height}px;background:${box.colour}"></div>`,
        );
      case '/gated':
        // What it loads from the other origin: an image, a fetch with credentials, and a redirect there.
        return html(
          res,
          `<div style="position:fixed;inset:0;background:${rgb(signedIn(req.headers) ? GREEN : RED)}"></div>` +
            `<img src="${other}/probe.png?from=img" width="1" height="1"><iframe src="/bounce" width="1" height="1"></iframe>` +
            `<script>fetch('${other}/probe?from=fetch', { mode: 'no-cors', credentials: 'include' })</script>`,
        );
      case '/bounce':
        res.writeHead(302, { location: `${other}/probe?from=redirect` });
        return void res.end();
      default:
        res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
        return void res.end('probe');
    }
  });
  other = `http://127.0.0.2:${port}`;
  return {
    app: `http://127.0.0.1:${port}`,
    other,
    port,
    hits,
    box,
    close,
  };
}
