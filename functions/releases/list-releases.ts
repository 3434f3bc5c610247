import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { listReleases } from '#shared/services/releases.ts';
import { releaseDeps } from '#shared/wiring/workspace.ts';
import * as routes from '#shared/routes/releases.ts';

/** GET /api/v1/releases: newest first, `limit` 1..100, the next page from `cursor`. */
export const handler = route(
  routes.listReleases,
  async ({ query, principal }) => listReleases(releaseDeps(), { workspaceId: principal.workspaceId, limit: query.limit, cursor: query.cursor }),
  { authenticate },
);
