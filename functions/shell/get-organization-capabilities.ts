import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { getCapabilities } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** GET /api/v1/organizations/{organizationId}/capabilities: flags and the safe entitlement view. */
export const handler = route(
  routes.getOrganizationCapabilities,
  async ({ params, principal }) => getCapabilities({ organizationId: params.organizationId, member: principal }),
  { authenticate },
);
