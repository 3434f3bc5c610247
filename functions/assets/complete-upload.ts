import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { idempotency } from '#shared/wiring/idempotency.ts';
import { completeUpload } from '#shared/services/assets.ts';
import { assetDeps } from '#shared/wiring/assets.ts';
import * as routes from '#shared/routes/assets.ts';

/** POST /api/v1/assets/{assetId}/complete: verifies the stored object and marks the asset ready. */
export const handler = route(
  routes.completeAssetUpload,
  async ({ params, body, principal }) => completeUpload(assetDeps(), { workspaceId: principal.workspaceId, assetId: params.assetId, sha256: body?.sha256 }),
  { authenticate, idempotency },
);
