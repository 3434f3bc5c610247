/** The row of functions/export/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { defineRow } from '#shared/routes/row.ts';
import { EXPORT_MAX_BODY_BYTES, ExportRequest } from '#shared/schemas/export.ts';

export const postExport = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.postExport,
  handler: 'functions/export/post-export.ts',
  auth: 'none',
  // One vCPU: sharp runs one libvips thread per image, so more memory buys no speed; a 40 MP decode
  // peaks at ≈ 330 MiB (`npm run bench -- cost`). The timeout stays under API Gateway's 30 s limit.
  memory: 1769,
  timeout: 28,
  access: {},
  nodeModules: ['sharp'],
  listed: true,
  tag: 'Export',
  body: {
    contentType: 'multipart/form-data',
    schema: ExportRequest,
    maxBytes: EXPORT_MAX_BODY_BYTES,
    encoding: { image: { contentType: 'image/png, image/jpeg, image/webp' } },
  },
  errors: [400, 405, 413, 500],
  refusedMethods: ['GET'],
}));
