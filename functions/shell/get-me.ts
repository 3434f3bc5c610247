import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { userStore } from '#shared/wiring/identity.ts';
import { getMe } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** GET /api/v1/me: the signed-in user. */
export const handler = route(routes.getMe, async ({ principal }) => getMe({ store: userStore() }, { userId: principal.userId }), { authenticate });
