import { sessionToken } from '#shared/http/cookies.ts';
import { reply } from '#shared/http/reply.ts';
import { route } from '#shared/http/route.ts';
import { clearedSessionCookies } from '#shared/http/session-replies.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { sessionState } from '#shared/services/sign-in/sessions.ts';
import { sessionDeps } from '#shared/wiring/sign-in.ts';

/** GET /api/v1/auth/session: who is signed in, or `signedIn: false`; a page asks on every load without a 401. */
export const handler = route(routes.getSession, async ({ event }) => {
  const { body, clear } = await sessionState(sessionDeps(), { token: sessionToken(event) });
  return reply.json(body, 200, { headers: { 'Cache-Control': 'no-store' }, cookies: clear ? clearedSessionCookies(event) : [] });
});
