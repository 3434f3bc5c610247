import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { idempotency } from '#shared/wiring/idempotency.ts';
import { createUpload } from '#shared/services/assets.ts';
import { assetUrlDeps } from '#shared/wiring/asset-urls.ts';
import * as routes from '#shared/routes/assets.ts';

/** POST /api/v1/assets/upload-url: a pending asset and its presigned PUT. */
export const handler = route(
  routes.createAssetUpload,
  async ({ body, principal }) => createUpload(assetUrlDeps(), { workspaceId: principal.workspaceId, body }),
  { authenticate, idempotency },
);
