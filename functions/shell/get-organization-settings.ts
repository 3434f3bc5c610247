import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { organizationStore } from '#shared/wiring/identity.ts';
import { getSettings } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** GET /api/v1/organizations/{organizationId}/settings: the workspace settings. */
export const handler = route(
  routes.getOrganizationSettings,
  async ({ params, principal }) => getSettings({ store: organizationStore() }, { organizationId: params.organizationId, member: principal }),
  { authenticate },
);
