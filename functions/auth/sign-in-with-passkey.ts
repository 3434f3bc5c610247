import { route } from '#shared/http/route.ts';
import { previousSessionToken } from '#shared/http/cookies.ts';
import { signedInReply } from '#shared/http/session-replies.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { signInWithPasskey } from '#shared/services/sign-in/passkeys.ts';
import { rateLimit } from '#shared/wiring/rate-limit.ts';
import { passkeyDeps, sessionDeps } from '#shared/wiring/sign-in.ts';

/** POST /api/v1/auth/passkey/verify: a verified passkey signs in (a new session cookie). */
export const handler = route(
  routes.signInWithPasskey,
  async ({ body, event }) => {
    const issued = await signInWithPasskey(
      { ...passkeyDeps(), sessions: sessionDeps() },
      { response: body.response, userAgent: event.headers?.['user-agent'], previousToken: previousSessionToken(event) },
    );
    return signedInReply(event, issued);
  },
  { rateLimit },
);
