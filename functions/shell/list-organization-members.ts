import { authenticate } from '#shared/wiring/auth.ts';
import { route } from '#shared/http/route.ts';
import { identityStore } from '#shared/wiring/identity.ts';
import { listMembers } from '#shared/services/shell.ts';

/** GET /api/v1/organizations/{organizationId}/members: the roster (member:read). */
export const handler = route('listOrganizationMembers', async ({ params, principal }) =>
  listMembers({ store: identityStore() }, { organizationId: params.organizationId, member: principal }),
  { authenticate },
);
