import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { userOrganizationsStore } from '#shared/wiring/identity.ts';
import { listOrganizations } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** GET /api/v1/organizations: every organization of the user, with the role in each. */
export const handler = route(
  routes.listOrganizations,
  async ({ principal }) =>
    listOrganizations({ store: userOrganizationsStore() }, { userId: principal.userId, activeOrganizationId: principal.activeOrganizationId }),
  { authenticate },
);
