/**
 * A site behind a login for the Advanced capture options: a dashboard green only for the session
 * cookie, a menu green only once clicked, and a plain page whose size is the viewport's.
 */
import type { IncomingMessage } from 'node:http';
import { serveOnLoopback, type LoopbackServer } from '../../support/loopback-server.ts';

export const SIGNED_IN_RGB = [0, 160, 0] as const;
export const SIGNED_OUT_RGB = [200, 0, 0] as const;
/** The session cookie's value: what must never be kept or shared by the editor. */
export const SESSION_SECRET = 'e2e-session-7f3a9c1d5b';

const page = (colour: readonly number[], body = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%;background:rgb(${colour.join(',')})}</style></head><body>${body}</body></html>`;

const signedIn = (request: IncomingMessage) => (request.headers.cookie ?? '').split(/;\s*/).includes(`session=${SESSION_SECRET}`);

// Clicking #open turns the page green, as a menu opened by a click would change it.
const MENU = page(
  SIGNED_OUT_RGB,
  '<button id="open" style="width:200px;height:60px">Open</button><script>document.getElementById("open").addEventListener("click",()=>{document.body.style.background="rgb(0,160,0)";document.documentElement.style.background="rgb(0,160,0)"})</script>',
);

export function startLoginPages(): Promise<LoopbackServer> {
  return serveOnLoopback((request, response) => {
    const path = new URL(request.url ?? '/', 'http://pages').pathname;
    const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    if (path === '/dashboard') return void html(page(signedIn(request) ? SIGNED_IN_RGB : SIGNED_OUT_RGB));
    if (path === '/menu') return void html(MENU);
    if (path === '/plain') return void html(page([240, 240, 240]));
    response.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
}
