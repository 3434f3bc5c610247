import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { listSessions } from '#shared/services/sign-in/session-list.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { sessionDeps } from '#shared/wiring/sign-in.ts';

/** GET /api/v1/auth/sessions: the user's live sessions, the current one marked. */
export const handler = route(routes.listSessions, async ({ principal }) => listSessions(sessionDeps(), principal), { authenticate });
