import { authenticate } from '#shared/wiring/auth.ts';
import { route } from '#shared/http/route.ts';
import { listReleases } from '#shared/services/releases.ts';
import { releaseDeps } from '#shared/wiring/workspace.ts';

/** GET /api/v1/releases: newest first, `limit` 1..100, the next page from `cursor`. */
export const handler = route(
  'listReleases',
  async ({ query, principal }) => listReleases(releaseDeps(), { workspaceId: principal.workspaceId, limit: query.limit, cursor: query.cursor }),
  { authenticate },
);
