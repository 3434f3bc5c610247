import { authenticate } from '#shared/wiring/auth.ts';
import { route } from '#shared/http/route.ts';
import { identityStore } from '#shared/wiring/identity.ts';
import { getBootstrap } from '#shared/services/shell.ts';

/** GET /api/v1/bootstrap: everything the shell renders for the active organization. */
export const handler = route('getBootstrap', async ({ principal }) => getBootstrap({ store: identityStore() }, { member: principal }), { authenticate });
