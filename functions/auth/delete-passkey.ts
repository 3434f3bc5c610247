import { reply } from '#shared/http/reply.ts';
import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { deletePasskey } from '#shared/services/sign-in/passkeys.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { passkeyDeps } from '#shared/wiring/sign-in.ts';

/** DELETE /api/v1/auth/passkeys/{passkeyId}: removes one of the user's passkeys. */
export const handler = route(
  routes.deletePasskey,
  async ({ params, principal }) => {
    await deletePasskey(passkeyDeps(), { userId: principal.userId, passkeyId: params.passkeyId });
    return reply.empty(204);
  },
  { authenticate },
);
