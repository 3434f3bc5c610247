/** What a browser is shown while the local server starts: a page that says so and reloads itself, not a blank 503. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Seconds between the page's tries, also its Retry-After. */
export const STARTING_RETRY_SECONDS = 1;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="refresh" content="${STARTING_RETRY_SECONDS}">
<title>Easel is starting…</title>
</head>
<body>
<h1>Easel is starting…</h1>
<p>The local server has not finished starting. This page tries again every second and shows the editor as soon as the server answers.</p>
</body>
</html>
`;

/** A browser navigation: it reads HTML, where an API client reads JSON. */
function isNavigation(req: IncomingMessage): boolean {
  const method = req.method ?? 'GET';
  return (method === 'GET' || method === 'HEAD') && (req.headers['sec-fetch-mode'] === 'navigate' || (req.headers.accept ?? '').includes('text/html'));
}

/**
 * Answers a browser navigation made before the server is ready with a 503 page that reloads
 * itself (a meta refresh: no script, so a CSP of `default-src 'none'` holds); returns false for
 * any other request, which the caller answers.
 */
export function answerStartingPage(req: IncomingMessage, res: ServerResponse): boolean {
  if (!isNavigation(req)) return false;
  res.writeHead(503, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(PAGE),
    'Retry-After': String(STARTING_RETRY_SECONDS),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : PAGE);
  return true;
}
