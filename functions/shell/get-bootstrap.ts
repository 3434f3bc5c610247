import { route } from '#shared/http/route.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { shellStore } from '#shared/wiring/identity.ts';
import { getBootstrap } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** GET /api/v1/bootstrap: everything the shell renders for the active organization. */
export const handler = route(routes.getBootstrap, async ({ principal }) => getBootstrap({ store: shellStore() }, { member: principal }), { authenticate });
