import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { organizationStore } from '#shared/wiring/identity.ts';
import { getOrganization } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** GET /api/v1/organizations/{organizationId}: the active organization. */
export const handler = route(
  routes.getOrganization,
  async ({ params, principal }) => getOrganization({ store: organizationStore() }, { organizationId: params.organizationId, member: principal }),
  { authenticate },
);
