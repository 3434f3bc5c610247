import { shellRoute } from '#shared/wiring/auth.ts';
import { getCapabilities } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** GET /api/v1/organizations/{organizationId}/capabilities: flags and the safe entitlement view. */
export const handler = shellRoute(routes.getOrganizationCapabilities, async ({ params, principal }) =>
  getCapabilities({ organizationId: params.organizationId, member: principal }),
);
