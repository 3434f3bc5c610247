import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { requestDeletion } from '#shared/services/assets.ts';
import { consumeQuota } from '#shared/services/quota.ts';
import { deletionRequestDeps } from '#shared/wiring/asset-deletion.ts';
import { rateTableLimiter } from '#shared/wiring/rate-limit.ts';
import * as routes from '#shared/routes/assets.ts';

/** DELETE /api/v1/assets/{assetId}: auth has checked scope and entitlement; every attempt counts against the write quota. */
export const handler = route(
  routes.deleteAsset,
  async ({ params, principal }) => {
    await consumeQuota(rateTableLimiter(), { workspaceId: principal.workspaceId, plan: principal.plan, quota: 'api:write:minute' });
    return requestDeletion(deletionRequestDeps(), { workspaceId: principal.workspaceId, assetId: params.assetId });
  },
  { authenticate },
);
