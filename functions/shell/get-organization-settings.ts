import { authenticate } from '#shared/wiring/auth.ts';
import { route } from '#shared/http/route.ts';
import { identityStore } from '#shared/wiring/identity.ts';
import { getSettings } from '#shared/services/shell.ts';

/** GET /api/v1/organizations/{organizationId}/settings: the workspace settings. */
export const handler = route('getOrganizationSettings', async ({ params, principal }) =>
  getSettings({ store: identityStore() }, { organizationId: params.organizationId, member: principal }),
  { authenticate },
);
