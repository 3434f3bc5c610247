/** The row of functions/media/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { defineRow } from '#shared/routes/row.ts';
import { ImageProxyQuery } from '#shared/schemas/media.ts';

export const getImageProxy = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getImageProxy,
  handler: 'functions/media/get-image-proxy.ts',
  auth: 'none',
  // Buffers the body and its base64 copy on Lambda; more memory also speeds up TLS.
  memory: 512,
  timeout: 28,
  access: {},
  listed: true,
  tag: 'Media',
  query: ImageProxyQuery,
  errors: [400, 403, 500, 502],
}));
