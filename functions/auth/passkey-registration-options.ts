import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { registrationOptions } from '#shared/services/sign-in/passkeys.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { passkeyDeps } from '#shared/wiring/sign-in.ts';

/** POST /api/v1/auth/passkeys/options: a stored, single-use challenge for navigator.credentials.create(). */
export const handler = route(routes.passkeyRegistrationOptions, async ({ principal }) => registrationOptions(passkeyDeps(), principal), { authenticate });
