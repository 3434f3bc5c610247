import { shellRoute } from '#shared/wiring/auth.ts';
import { shellStore } from '#shared/wiring/identity.ts';
import { getSettings } from '#shared/services/shell.ts';

/** GET /api/v1/organizations/{organizationId}/settings: the workspace settings. */
export const handler = shellRoute('getOrganizationSettings', async ({ params, principal }) =>
  getSettings({ store: shellStore() }, { organizationId: params.organizationId, member: principal }),
);
