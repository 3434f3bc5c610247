/** The row of functions/screenshot/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { CAPTURES, defineRow } from '#shared/routes/row.ts';
import { ScreenshotRequest } from '#shared/schemas/screenshot.ts';

export const capturePage = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.capturePage,
  handler: 'functions/screenshot/capture-page.ts',
  auth: 'none',
  // Chromium's floor is 1.6 GB; one vCPU: docs/performance.md, "Cost per million calls".
  memory: 1769,
  // Under API Gateway's 30 s: the capture time-out (at most 25 s) plus caching.
  timeout: 29,
  access: { tables: { rate: ['UpdateItem'], cache: ['GetItem', 'PutItem'] }, buckets: { cache: { GetObject: CAPTURES, PutObject: CAPTURES } } },
  // Installed for its flags and Lambda set-up; its brotli binary gives way to the zstd pack below.
  nodeModules: ['@sparticuz/chromium', 'sharp'],
  // Chromium unpacked in a third of brotli's CPU at cold start (infra/assets/chromium.ts).
  chromiumPack: true,
  // The ad engine and autoconsent's script, read beside the bundle (infra/assets/clean-capture.ts).
  cleanCapture: true,
  // Noto for every script and emoji, in a layer: @sparticuz/chromium ships Open Sans alone.
  fonts: true,
  listed: true,
  tag: 'Screenshot',
  body: { contentType: 'application/json', schema: ScreenshotRequest, maxBytes: 524_288 },
  errors: [400, 404, 405, 408, 413, 429, 500, 503],
  refusedMethods: ['GET'],
  extensions: { 'x-easel-rate-limit': { limit: 20, windowSeconds: 60 } },
}));
