import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { listPasskeys } from '#shared/services/sign-in/passkeys.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { passkeyDeps } from '#shared/wiring/sign-in.ts';

/** GET /api/v1/auth/passkeys: the user's passkeys, oldest first. */
export const handler = route(routes.listPasskeys, async ({ principal }) => listPasskeys(passkeyDeps(), principal), { authenticate });
