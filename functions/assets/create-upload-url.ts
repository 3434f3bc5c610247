import { workspaceRoute } from '#shared/wiring/auth.ts';
import { createUpload } from '#shared/services/assets.ts';
import { assetDeps } from '#shared/wiring/assets.ts';

/** POST /api/v1/assets/upload-url: a pending asset and its presigned PUT. */
export const handler = workspaceRoute('createAssetUpload', async ({ body, principal }) =>
  createUpload(assetDeps(), { workspaceId: principal.workspaceId, body }),
);
