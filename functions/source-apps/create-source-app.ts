import { reply } from '#shared/http/reply.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { route } from '#shared/http/route.ts';
import { createSourceApp } from '#shared/services/source-apps.ts';
import { sourceAppDeps } from '#shared/wiring/workspace.ts';

/** POST /api/v1/source-apps: registers a release-intake source app. */
export const handler = route('createSourceApp', async ({ body, principal }) =>
  reply.json(await createSourceApp(sourceAppDeps(), { workspaceId: principal.workspaceId, body }), 201),
  { authenticate },
);
