import { LAMBDA_MAX_BINARY_BYTES, reply } from '#shared/http/reply.ts';
import { route } from '#shared/http/route.ts';
import { multipartBody } from '#shared/http/multipart.ts';
import { exportImage } from '#shared/services/export.ts';
import * as routes from '#shared/routes/export.ts';

/** POST /api/export: recompress an uploaded image into PNG, JPEG or WebP; answers the raw bytes. */
export const handler = route(
  routes.postExport,
  async ({ body }) => {
    const image = await exportImage(
      { maxResponseBytes: LAMBDA_MAX_BINARY_BYTES },
      {
        bytes: body.image.content,
        declaredType: body.image.mimetype,
        fileName: body.image.filename,
        format: body.format,
        preset: body.qualityPreset,
      },
    );
    return reply.binary(image.bytes, image.contentType, 200, {
      headers: {
        'Content-Disposition': `attachment; filename="${image.fileName}"`,
        // The output depends on the uploaded bytes: nothing for a shared cache to reuse.
        'Cache-Control': 'no-store',
      },
    });
  },
  { multipartBody },
);
