import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { createDownloadUrl } from '#shared/services/assets.ts';
import { assetUrlDeps } from '#shared/wiring/asset-urls.ts';
import * as routes from '#shared/routes/assets.ts';

/** GET /api/v1/assets/{assetId}/download-url: a short-lived presigned GET for a ready asset. */
export const handler = route(
  routes.getAssetDownloadUrl,
  async ({ params, principal }) => createDownloadUrl(assetUrlDeps(), { workspaceId: principal.workspaceId, assetId: params.assetId }),
  { authenticate },
);
