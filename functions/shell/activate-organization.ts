import { authenticate } from '#shared/wiring/auth.ts';
import { route } from '#shared/http/route.ts';
import { identityStore } from '#shared/wiring/identity.ts';
import { activateOrganization } from '#shared/services/shell.ts';

/** POST /api/v1/organizations/{organizationId}/activate: switch organizations; returns the refreshed bootstrap. */
export const handler = route('activateOrganization', async ({ params, principal }) =>
  activateOrganization({ store: identityStore() }, { organizationId: params.organizationId, session: principal }),
  { authenticate },
);
