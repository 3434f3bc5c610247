/** The row of functions/screenshot/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { CAPTURES, defineRow } from '#shared/routes/row.ts';
import { ScreenshotRequest } from '#shared/schemas/screenshot.ts';

export const capturePage = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.capturePage,
  handler: 'functions/screenshot/capture-page.ts',
  auth: 'none',
  // Chromium wants 1.6 GB or more (@sparticuz/chromium); a warm capture keeps 1.0–1.3 cores busy
  // but waits on the page for a tenth of its bill, so one vCPU (`npm run bench -- cost`).
  memory: 1769,
  // API Gateway gives up at 30 s; the capture time-out (at most 25 s) plus caching fits in 29.
  timeout: 29,
  // The per-IP counter (rate), then the cache entry and its PNG.
  access: { tables: { rate: ['UpdateItem'], cache: ['GetItem', 'PutItem'] }, buckets: { cache: { GetObject: CAPTURES, PutObject: CAPTURES } } },
  // It reads its brotli-compressed binary next to its own files at run time: install, never bundle.
  nodeModules: ['@sparticuz/chromium'],
  listed: true,
  tag: 'Screenshot',
  body: { contentType: 'application/json', schema: ScreenshotRequest, maxBytes: 8192 },
  errors: [400, 405, 408, 413, 429, 500, 503],
  refusedMethods: ['GET'],
  extensions: { 'x-easel-rate-limit': { limit: 20, windowSeconds: 60 } },
}));
