import { shellRoute } from '#shared/wiring/auth.ts';
import { joinStores } from '#shared/store/identity-items.ts';
import { membershipStore, userStore } from '#shared/wiring/identity.ts';
import { listMembers } from '#shared/services/shell.ts';

/** GET /api/v1/organizations/{organizationId}/members: the roster (member:read). */
export const handler = shellRoute('listOrganizationMembers', async ({ params, principal }) =>
  listMembers({ store: joinStores(membershipStore(), userStore()) }, { organizationId: params.organizationId, member: principal }),
);
