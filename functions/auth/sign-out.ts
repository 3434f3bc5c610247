import { reply } from '#shared/http/reply.ts';
import { route } from '#shared/http/route.ts';
import { previousSessionToken } from '#shared/http/cookies.ts';
import { clearedSessionCookies } from '#shared/http/session-replies.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { signOut } from '#shared/services/sign-in/sessions.ts';
import { sessionDeps } from '#shared/wiring/sign-in.ts';

/** POST /api/v1/auth/sign-out: ends this browser's session and clears its cookie; 204 signed in or not. */
export const handler = route(routes.signOut, async ({ event }) => {
  await signOut(sessionDeps(), { token: previousSessionToken(event) });
  return reply.empty(204, { cookies: clearedSessionCookies(event) });
});
