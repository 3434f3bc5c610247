import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { myInvitations } from '#shared/services/sign-in/invitations.ts';
import { requireUser } from '#shared/services/shell.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { invitationDeps } from '#shared/wiring/sign-in.ts';

/** GET /api/v1/auth/invitations: every invitation of the user's address, with its state. */
export const handler = route(
  routes.listMyInvitations,
  async ({ principal }) => {
    const deps = invitationDeps();
    return { invitations: await myInvitations(deps, (await requireUser(deps, principal.userId)).email) };
  },
  { authenticate },
);
