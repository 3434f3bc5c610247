import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { acceptInvitation } from '#shared/services/sign-in/invitations.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { invitationDeps } from '#shared/wiring/sign-in.ts';

/** POST /api/v1/auth/invitations/{invitationId}/accept: joins the organization with the invitation's role. */
export const handler = route(
  routes.acceptInvitation,
  async ({ params, principal }) => acceptInvitation(invitationDeps(), { userId: principal.userId, invitationId: params.invitationId }),
  { authenticate },
);
