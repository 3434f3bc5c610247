import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { rosterStore } from '#shared/wiring/identity.ts';
import { listMembers } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** GET /api/v1/organizations/{organizationId}/members: the roster (member:read). */
export const handler = route(
  routes.listOrganizationMembers,
  async ({ params, principal }) => listMembers({ store: rosterStore() }, { organizationId: params.organizationId, member: principal }),
  { authenticate },
);
