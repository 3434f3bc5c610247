/** The row of functions/internal/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { CAPTURES, defineRow } from '#shared/routes/row.ts';
import { CachePurgeRequest } from '#shared/schemas/screenshot.ts';

export const purgeCache = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.purgeCache,
  handler: 'functions/internal/purge-cache.ts',
  auth: 'internal',
  memory: 512,
  timeout: 30,
  // One URL: DeleteItem per variant; everything: Scan and BatchWriteItem.
  access: { tables: { cache: ['DeleteItem', 'Scan', 'BatchWriteItem'] }, buckets: { cache: { DeleteObject: CAPTURES } } },
  listed: false,
  tag: 'Internal',
  body: { contentType: 'application/json', schema: CachePurgeRequest, maxBytes: 8192 },
  errors: [400, 401, 413, 503],
}));
