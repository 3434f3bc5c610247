/**
 * A page that starts what its own request interception never sees: a service worker, a
 * SharedWorker and popups, each reaching for `target`. The page reports what came of each, then
 * shows `#done`; anything of them that ran and got a request out is counted under `/strays/ran`.
 */
import type { ServerResponse } from 'node:http';
import { serveOnLoopback } from './loopback-server.ts';
import type { LoopbackServer } from './loopback-server.ts';

/** On 127.0.0.1: a secure context, as service workers need. */
export interface StrayPages extends LoopbackServer {
  /** `from` of every request that reached `/strays/ran`: a worker or popup that ran and got out. */
  ran: string[];
  /** What the page saw of each (`/strays/report?sw=…&shared=…&popup=…`). */
  reports: Record<string, string>[];
  /** The page's path, reaching for `target`. */
  path(target: string): string;
}

const send = (res: ServerResponse, type: string, body: string) => {
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
};

// Each settles on what it could do: refused, absent, or ran (and then whether `target` answered).
const PAGE = (target: string) => `<!doctype html><html><body style="margin:0;background:#fff"><script>
  const target = ${JSON.stringify(target)};
  const query = '?target=' + encodeURIComponent(target);
  const sw = !navigator.serviceWorker ? Promise.resolve('absent') : new Promise((resolve) => {
    navigator.serviceWorker.onmessage = (event) => resolve('ran:' + event.data);
    navigator.serviceWorker.register('/strays/sw.js' + query).catch((error) => resolve('refused:' + error.name));
  });
  const shared = typeof SharedWorker !== 'function' ? Promise.resolve('absent') : new Promise((resolve) => {
    const worker = new SharedWorker('/strays/shared.js' + query);
    worker.onerror = () => resolve('error');
    worker.port.onmessage = (event) => resolve('ran:' + event.data);
  });
  const popup = new Promise((resolve) => {
    const opened = window.open('/strays/popup' + query);
    if (!opened) return resolve('null');
    addEventListener('message', (event) => event.data === 'popup ran' && resolve('ran'));
    const watch = setInterval(() => opened.closed && (clearInterval(watch), resolve('closed')), 20);
  });
  const link = Object.assign(document.createElement('a'), { href: target + '/popup-link', target: '_blank', rel: 'noopener' });
  document.body.append(link);
  link.click();
  Promise.all([sw, shared, popup])
    .then(([sw, shared, popup]) => fetch('/strays/report?' + new URLSearchParams({ sw, shared, popup })))
    .then(() => document.body.insertAdjacentHTML('beforeend', '<div id="done" style="width:10px;height:10px;background:#000"></div>'));
</script></body></html>`;

const reach = (from: string) => `const target = new URL(location.href).searchParams.get('target');
  const reach = () => Promise.all([fetch('/strays/ran?from=${from}').catch(() => {}), fetch(target + '/${from}').then(() => 'reached', () => 'refused')]).then(([, outcome]) => outcome);`;

const SERVICE_WORKER = `${reach('sw')}
  reach().then(async (outcome) => { for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage(outcome); });`;

const SHARED_WORKER = `${reach('shared')}
  onconnect = (event) => reach().then((outcome) => event.ports[0].postMessage(outcome));`;

const POPUP = `<!doctype html><html><body><script>${reach('popup')}
  reach().then(() => opener && opener.postMessage('popup ran', '*'));</script></body></html>`;

/** Starts the server of the stray page. */
export async function startStrayPages(): Promise<StrayPages> {
  const ran: string[] = [];
  const reports: Record<string, string>[] = [];
  const server = await serveOnLoopback((req, res) => {
    const url = new URL(req.url ?? '/', 'http://strays.test');
    const target = url.searchParams.get('target') ?? '';
    switch (url.pathname) {
      case '/strays':
        return send(res, 'text/html; charset=utf-8', PAGE(target));
      case '/strays/sw.js':
        return send(res, 'text/javascript', SERVICE_WORKER);
      case '/strays/shared.js':
        return send(res, 'text/javascript', SHARED_WORKER);
      case '/strays/popup':
        return send(res, 'text/html; charset=utf-8', POPUP);
      case '/strays/ran':
        ran.push(url.searchParams.get('from') ?? '');
        return send(res, 'text/plain', 'ran');
      case '/strays/report':
        reports.push(Object.fromEntries(url.searchParams));
        res.writeHead(204);
        return void res.end();
      default:
        res.writeHead(404);
        return void res.end();
    }
  });
  return {
    ...server,
    ran,
    reports,
    path: (target) => `/strays?target=${encodeURIComponent(target)}`,
  };
}
