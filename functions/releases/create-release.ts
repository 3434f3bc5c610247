import { REPLAYED_HEADER } from '#shared/http/replay.ts';
import { reply } from '#shared/http/reply.ts';
import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { createRelease } from '#shared/services/releases.ts';
import { releaseDeps } from '#shared/wiring/workspace.ts';
import * as routes from '#shared/routes/releases.ts';

/** POST /api/v1/releases: 201 created, or 200 with the release an earlier request with the same Idempotency-Key made. */
export const handler = route(
  routes.createRelease,
  async ({ body, headers, principal }) => {
    const { created, release } = await createRelease(releaseDeps(), {
      workspaceId: principal.workspaceId,
      body,
      idempotencyKey: headers['idempotency-key'],
    });
    return created ? reply.json(release, 201) : reply.json(release, 200, { headers: { [REPLAYED_HEADER]: 'true' } });
  },
  { authenticate },
);
