import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { signInOptions } from '#shared/services/sign-in/passkeys.ts';
import { rateLimit } from '#shared/wiring/rate-limit.ts';
import { passkeyDeps } from '#shared/wiring/sign-in.ts';

/** POST /api/v1/auth/passkey/options: a stored, single-use challenge for navigator.credentials.get(). */
export const handler = route(routes.passkeySignInOptions, async () => signInOptions(passkeyDeps()), { rateLimit });
