/** The row of functions/export/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { defineRow } from '#shared/routes/row.ts';
import { EXPORT_MAX_BODY_BYTES, ExportRequest } from '#shared/schemas/export.ts';

export const postExport = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.postExport,
  handler: 'functions/export/post-export.ts',
  auth: 'none',
  // One vCPU: sharp runs one libvips thread per image (docs/performance.md). Under API Gateway's 30 s.
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
