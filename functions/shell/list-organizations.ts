import { shellRoute } from '#shared/wiring/auth.ts';
import { joinStores } from '#shared/store/identity-items.ts';
import { membershipStore, organizationStore } from '#shared/wiring/identity.ts';
import { listOrganizations } from '#shared/services/shell.ts';

/** GET /api/v1/organizations: every organization of the user, with the role in each. */
export const handler = shellRoute('listOrganizations', async ({ principal }) =>
  listOrganizations({ store: joinStores(membershipStore(), organizationStore()) }, { userId: principal.userId, activeOrganizationId: principal.activeOrganizationId }),
);
