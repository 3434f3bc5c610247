import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { idempotency } from '#shared/wiring/idempotency.ts';
import { createSourceApp } from '#shared/services/source-apps.ts';
import { sourceAppDeps } from '#shared/wiring/workspace.ts';
import * as routes from '#shared/routes/source-apps.ts';

/** POST /api/v1/source-apps: registers a release-intake source app. */
export const handler = route(
  routes.createSourceApp,
  async ({ body, principal }) => createSourceApp(sourceAppDeps(), { workspaceId: principal.workspaceId, organizationId: principal.organizationId, body }),
  { authenticate, idempotency },
);
