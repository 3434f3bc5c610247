import { shellRoute } from '#shared/wiring/auth.ts';
import { shellStore } from '#shared/wiring/identity.ts';
import { getBootstrap } from '#shared/services/shell.ts';
import * as routes from '#shared/routes/shell.ts';

/** GET /api/v1/bootstrap: everything the shell renders for the active organization. */
export const handler = shellRoute(routes.getBootstrap, async ({ principal }) => getBootstrap({ store: shellStore() }, { member: principal }));
