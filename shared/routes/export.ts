/** The row of functions/export/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { defineRow } from '#shared/routes/row.ts';
import { EXPORT_MAX_BODY_BYTES, ExportRequest } from '#shared/schemas/export.ts';

export const postExport = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.postExport,
  handler: 'functions/export/post-export.ts',
  auth: 'none',
  // sharp runs one libvips thread per image; 2 GB buys a little more than one vCPU and room for
  // a 40 MP decode. The timeout stays under API Gateway's 30 s integration limit.
  memory: 2048,
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
