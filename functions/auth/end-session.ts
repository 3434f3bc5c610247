import { reply } from '#shared/http/reply.ts';
import { route } from '#shared/http/route.ts';
import { clearedSessionCookies } from '#shared/http/session-replies.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { endSession } from '#shared/services/sign-in/sessions.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { sessionDeps } from '#shared/wiring/sign-in.ts';

/** DELETE /api/v1/auth/sessions/{sessionId}: ends one of the user's sessions; ending this one clears its cookie. */
export const handler = route(
  routes.endSession,
  async ({ params, principal, event }) => {
    const { current } = await endSession(sessionDeps(), { userId: principal.userId, sessionId: params.sessionId, currentSessionId: principal.sessionId });
    return reply.empty(204, { cookies: current ? clearedSessionCookies(event) : [] });
  },
  { authenticate },
);
