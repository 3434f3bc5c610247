import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { registerPasskey } from '#shared/services/sign-in/passkeys.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { passkeyDeps } from '#shared/wiring/sign-in.ts';

/** POST /api/v1/auth/passkeys: keeps a passkey whose registration verifies against the user's own challenge. */
export const handler = route(
  routes.registerPasskey,
  async ({ body, principal, event }) =>
    registerPasskey(passkeyDeps(), { userId: principal.userId, response: body.response, name: body.name, userAgent: event.headers?.['user-agent'] }),
  { authenticate },
);
