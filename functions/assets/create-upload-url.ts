import { reply } from '#shared/http/reply.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { route } from '#shared/http/route.ts';
import { createUpload } from '#shared/services/assets.ts';
import { assetDeps } from '#shared/wiring/assets.ts';

/** POST /api/v1/assets/upload-url: a pending asset and its presigned PUT. */
export const handler = route('createAssetUpload', async ({ body, principal }) =>
  reply.json(await createUpload(assetDeps(), { workspaceId: principal.workspaceId, body }), 201),
  { authenticate },
);
