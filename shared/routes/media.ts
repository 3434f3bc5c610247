/** The row of functions/media/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { defineRow } from '#shared/routes/row.ts';
import { ImageProxyQuery } from '#shared/schemas/media.ts';

export const getImageProxy = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getImageProxy,
  handler: 'functions/media/get-image-proxy.ts',
  auth: 'none',
  // Buffers up to 4.5 MB on Lambda (plus its base64 copy); 512 MB also speeds up TLS.
  memory: 512,
  timeout: 28,
  access: {},
  listed: true,
  tag: 'Media',
  query: ImageProxyQuery,
  errors: [400, 403, 500, 502],
}));
