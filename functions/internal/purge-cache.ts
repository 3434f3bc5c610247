import { route } from '#shared/http/route.ts';
import { internalAuth } from '#shared/wiring/internal-auth.ts';
import { captureCache } from '#shared/wiring/capture-cache.ts';
import { purgeCaptures } from '#shared/services/capture/purge.ts';
import * as routes from '#shared/routes/internal.ts';

/** POST /internal/cache/purge (maintainers, internal secret): drops one URL's cached captures, or all. */
export const handler = route(routes.purgeCache, async ({ body }) => purgeCaptures(captureCache(), body), { internalAuth });
