import { route } from '#shared/http/route.ts';
import { readShots } from '#shared/services/shots/read.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { shotReadDeps } from '#shared/wiring/release-shots.ts';
import * as routes from '#shared/routes/releases.ts';

/** GET /api/v1/releases/{releaseId}/shots: each shot of the release and where it is. */
export const handler = route(
  routes.listReleaseShots,
  async ({ params, principal }) => readShots(shotReadDeps(), { workspaceId: principal.workspaceId, releaseId: params.releaseId }),
  { authenticate },
);
