/**
 * `npx node infra/tools/login-site.ts [port]`: a tiny site behind a login, for the worked example of
 * docs/capture.md ("Capturing a page behind a login"); 127.0.0.1:3210 unless told otherwise.
 */
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import { parseCookie, stringifySetCookie } from 'cookie';

/** What signs in: the session cookie its login sets, or a bearer token. Demo values, not secrets. */
export const LOGIN_SITE = { cookie: 'demo_session', session: 'signed-in-ada', token: 'demo-token-ada' } as const;

/** The dashboard's header colour, so a picture shows whether it was signed in. */
export const DASHBOARD_COLOUR = [22, 120, 60] as const;

const page = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Acme</title></head><body style="margin:0;font:16px sans-serif">${body}</body></html>`);
};

/** The site: /login (a form that sets the cookie), /dashboard (signed in only, else back to /login). */
export function loginSite(): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://login.site');
    const cookies = parseCookie(req.headers.cookie ?? '');
    const signedIn = cookies[LOGIN_SITE.cookie] === LOGIN_SITE.session || req.headers.authorization === `Bearer ${LOGIN_SITE.token}`;
    if (url.pathname === '/login' && req.method === 'POST') {
      res.writeHead(303, {
        location: '/dashboard',
        'set-cookie': stringifySetCookie({ name: LOGIN_SITE.cookie, value: LOGIN_SITE.session, path: '/', httpOnly: true, sameSite: 'lax' }),
      });
      return void res.end();
    }
    if (url.pathname === '/dashboard' && signedIn) {
      return page(
        res,
        200,
        `<header style="box-sizing:border-box;height:120px;background:rgb(${DASHBOARD_COLOUR.join(',')});color:#fff;padding:24px"><h1>Welcome back, Ada</h1></header><main style="padding:24px">Release 4.2 is ready to ship.</main>`,
      );
    }
    if (url.pathname === '/dashboard') {
      res.writeHead(302, { location: '/login' });
      return void res.end();
    }
    if (url.pathname === '/login') {
      return page(res, 200, '<form method="post" action="/login" style="padding:24px"><h1>Sign in to Acme</h1><button>Sign in</button></form>');
    }
    page(res, 404, '<h1>Not found</h1>');
  });
}

if (import.meta.main) {
  const port = Number(process.argv[2] ?? 3210);
  loginSite().listen(port, '127.0.0.1', () => process.stdout.write(`Login site on http://127.0.0.1:${port}/dashboard (Ctrl-C stops it)\n`));
}
