import { route } from '#shared/http/route.ts';
import { startShotRun } from '#shared/services/shots/runs.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { idempotency } from '#shared/wiring/idempotency.ts';
import { shotRunDeps } from '#shared/wiring/shot-runs.ts';
import * as routes from '#shared/routes/releases.ts';

/** POST /api/v1/releases/{releaseId}/shots: 202 with the run, its shots queued for the shot worker. */
export const handler = route(
  routes.runReleaseShots,
  async ({ params, body, principal }) =>
    startShotRun(shotRunDeps(), { workspaceId: principal.workspaceId, plan: principal.plan, releaseId: params.releaseId, request: body }),
  { authenticate, idempotency },
);
