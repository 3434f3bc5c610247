import { internalAuth } from '#shared/wiring/internal-auth.ts';
import { route } from '#shared/http/route.ts';
import { captureCache } from '#shared/wiring/capture-cache.ts';
import { purgeCaptures } from '#shared/services/capture/purge.ts';

/** POST /internal/cache/purge (maintainers, internal secret): drops one URL's cached captures, or all. */
export const handler = route('purgeCache', async ({ body }) => purgeCaptures(captureCache(), body), { internalAuth });
