import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/assets.ts';
import { listAssets } from '#shared/services/asset-list.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { assetUrlDeps } from '#shared/wiring/asset-urls.ts';

/** GET /api/v1/assets: the workspace's assets, newest first, ready ones with a download URL. */
export const handler = route(
  routes.listAssets,
  async ({ query, principal }) =>
    listAssets(assetUrlDeps(), { workspaceId: principal.workspaceId, limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) }),
  { authenticate },
);
