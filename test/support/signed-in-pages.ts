/**
 * Pages for issue 32's capture options, on 127.0.0.1: each turns green only when it gets what an
 * option sends (a header, a cookie, a user agent, a click, reduced motion). A second origin on
 * 127.0.0.2, same port, records what the pages' requests to it carried.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { listenPair } from './listen-pair.ts';

/** What the options send; a page is green only with these. */
export const PASS = {
  header: ['X-Easel-Pass', 'open-sesame-header'],
  cookie: ['easel_pass', 'open-sesame-cookie'],
  userAgent: 'EaselFixture/1.0 (signed-in pages)',
} as const;

export const GREEN = [0, 160, 0] as const;
export const RED = [200, 0, 0] as const;

export interface Hit {
  origin: 'target' | 'second';
  path: string;
  headers: IncomingHttpHeaders;
}

export interface SignedInPages {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** http://127.0.0.2:<port> */
  second: string;
  port: number;
  hits: Hit[];
  close(): Promise<void>;
}

const colour = (rgb: readonly number[]) => `rgb(${rgb.join(',')})`;
const html = (res: ServerResponse, body: string) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">${body}</body></html>`);
};
const fill = (ok: boolean, extra = '') => `<div id="fill" style="position:fixed;inset:0;background:${colour(ok ? GREEN : RED)}"></div>${extra}`;

function hasCookie(headers: IncomingHttpHeaders): boolean {
  return (headers.cookie ?? '').split(/;\s*/).includes(`${PASS.cookie[0]}=${PASS.cookie[1]}`);
}

/** What a gated page loads from elsewhere: an image and a fetch on the second origin, a redirect there, and a same-origin fetch. */
const reachOut = (second: string, from: string) =>
  `<img src="${second}/probe.png?from=${from}-img" width="1" height="1">` +
  `<iframe src="/bounce?from=${from}" width="1" height="1"></iframe>` +
  `<script>fetch('${second}/probe?from=${from}-fetch', { mode: 'no-cors', credentials: 'include' }); fetch('/same?from=${from}');</script>`;

// Red, turned green by a real click on the button; #opened appears a moment after it.
const CLICK_PAGE = `${fill(false)}<button id="open" style="position:fixed;left:40px;top:40px;width:300px;height:120px;border-radius:0">Open</button>
<script>document.getElementById('open').addEventListener('click', () => {
  document.getElementById('fill').style.background = '${colour(GREEN)}';
  setTimeout(() => { const d = document.createElement('div'); d.id = 'opened'; d.style.cssText = 'position:fixed;right:0;bottom:0;width:10px;height:10px;background:${colour(GREEN)}'; document.body.append(d); }, 300);
});</script>`;

// Three bands, green only at their end or under reduced motion: a 10-minute animation, a
// 10-minute transition started after load, and a band the media query colours. One endless
// animation besides, which finishing must not trip over.
const MOTION_PAGE = `<style>
@keyframes toGreen { from { background: ${colour(RED)} } to { background: ${colour(GREEN)} } }
#a { position: fixed; left: 0; top: 0; width: 100%; height: 33.4%; animation: toGreen 600s linear forwards; }
#t { position: fixed; left: 0; top: 33.3%; width: 100%; height: 33.4%; background: ${colour(RED)}; transition: background 600s linear; }
#t.go { background: ${colour(GREEN)}; }
#m { position: fixed; left: 0; top: 66.6%; width: 100%; height: 33.4%; background: ${colour(RED)}; }
@media (prefers-reduced-motion: reduce) { #m { background: ${colour(GREEN)}; } }
@keyframes spin { to { transform: rotate(360deg) } }
#spin { position: fixed; left: -50px; top: -50px; width: 10px; height: 10px; animation: spin 1s linear infinite; }
</style><div id="a"></div><div id="t"></div><div id="m"></div><div id="spin"></div>
<script>requestAnimationFrame(() => requestAnimationFrame(() => document.getElementById('t').classList.add('go')));</script>`;

export async function startSignedInPages(): Promise<SignedInPages> {
  const hits: Hit[] = [];
  let second = '';
  const { close, port } = await listenPair((host) => (req, res) => {
    const origin = host === 'first' ? 'target' : 'second';
    const url = new URL(req.url ?? '/', 'http://pages.test');
    hits.push({ origin, path: `${url.pathname}${url.search}`, headers: req.headers });
    const headers = req.headers;
    if (origin === 'second') {
      res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
      return void res.end('probe');
    }
    // Marks what this capture's page loads elsewhere, so each test counts its own.
    const run = url.searchParams.get('run') ?? 'page';
    switch (url.pathname) {
      case '/header':
        // ?also=<url>: one more image, from wherever the test says (an address the guard refuses).
        return html(
          res,
          fill(
            headers[PASS.header[0].toLowerCase()] === PASS.header[1],
            reachOut(second, `header-${run}`) + (url.searchParams.has('also') ? `<img src="${url.searchParams.get('also')}">` : ''),
          ),
        );
      case '/cookie':
        return html(res, fill(hasCookie(headers), reachOut(second, `cookie-${run}`)));
      case '/agent':
        // Green only when the request and navigator.userAgent both say it; black when only the request does.
        return html(
          res,
          fill(
            headers['user-agent'] === PASS.userAgent,
            `<script>if (${JSON.stringify(headers['user-agent'] === PASS.userAgent)} && navigator.userAgent !== ${JSON.stringify(PASS.userAgent)}) document.getElementById('fill').style.background = 'black';</script>`,
          ),
        );
      case '/click':
        return html(res, CLICK_PAGE);
      case '/motion':
        return html(res, MOTION_PAGE);
      // White; the css option's tests paint it.
      case '/blank':
        return html(res, '<h1 style="margin:0">blank</h1>');
      // A hop from the target's origin to the second one, as a redirecting link would.
      case '/bounce':
        res.writeHead(302, { location: `${second}/probe?from=${url.searchParams.get('from')}-redirect` });
        return void res.end();
      default:
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end('ok');
    }
  });
  second = `http://127.0.0.2:${port}`;
  return {
    origin: `http://127.0.0.1:${port}`,
    second,
    port,
    hits,
    close,
  };
}
