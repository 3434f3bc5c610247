import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { shellStore } from '#shared/wiring/identity.ts';
import { activateOrganization } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** POST /api/v1/organizations/{organizationId}/activate: switch organizations; returns the refreshed bootstrap. */
export const handler = route(
  routes.activateOrganization,
  async ({ params, principal }) => activateOrganization({ store: shellStore() }, { organizationId: params.organizationId, session: principal }),
  { authenticate },
);
