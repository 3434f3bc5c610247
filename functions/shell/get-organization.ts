import { shellRoute } from '#shared/wiring/auth.ts';
import { shellStore } from '#shared/wiring/identity.ts';
import { getOrganization } from '#shared/services/shell.ts';

/** GET /api/v1/organizations/{organizationId}: the active organization. */
export const handler = shellRoute('getOrganization', async ({ params, principal }) =>
  getOrganization({ store: shellStore() }, { organizationId: params.organizationId, member: principal }),
);
