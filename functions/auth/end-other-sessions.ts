import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { endOtherSessions } from '#shared/services/sign-in/sessions.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { sessionDeps } from '#shared/wiring/sign-in.ts';

/** DELETE /api/v1/auth/sessions: signs the user out everywhere but here. */
export const handler = route(routes.endOtherSessions, async ({ principal }) => endOtherSessions(sessionDeps(), principal), { authenticate });
