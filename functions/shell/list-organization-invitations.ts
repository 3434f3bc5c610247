import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { invitationStore } from '#shared/wiring/identity.ts';
import { listInvitations } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** GET /api/v1/organizations/{organizationId}/invitations: open invitations (invitation:read). */
export const handler = route(
  routes.listOrganizationInvitations,
  async ({ params, principal }) => listInvitations({ store: invitationStore() }, { organizationId: params.organizationId, member: principal }),
  { authenticate },
);
