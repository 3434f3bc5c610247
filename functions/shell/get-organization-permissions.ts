import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { getPermissions } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** GET /api/v1/organizations/{organizationId}/permissions: the role and what it resolves to. */
export const handler = route(
  routes.getOrganizationPermissions,
  async ({ params, principal }) => getPermissions({ organizationId: params.organizationId, member: principal }),
  { authenticate },
);
