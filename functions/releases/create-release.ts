import { reply } from '#shared/http/reply.ts';
import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { createRelease } from '#shared/services/releases.ts';
import { releaseDeps } from '#shared/wiring/workspace.ts';
import * as routes from '#shared/routes/releases.ts';

/** POST /api/v1/releases: 201 created, or 200 with the release an earlier request with the same Idempotency-Key made. */
export const handler = route(routes.createRelease, async ({ body, headers, principal }) => {
  const { created, release } = await createRelease(releaseDeps(), {
    workspaceId: principal.workspaceId,
    body,
    idempotencyKey: headers['idempotency-key'],
  });
  return reply.json(release, created ? 201 : 200);
}, { authenticate });
