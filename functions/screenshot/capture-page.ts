// First: Chromium unpacks from here on, while the modules below load.
import '#shared/wiring/chromium.ts';
import { route } from '#shared/http/route.ts';
import { rateLimit } from '#shared/wiring/rate-limit.ts';
import type { ScreenshotResponse } from '#shared/schemas/screenshot.ts';
import { prelaunch, screenshotService, warmUp } from '#shared/wiring/capture.ts';
import { config } from '#shared/config.ts';
import * as routes from '#shared/routes/screenshot.ts';

// Chromium starts during the cold start. With no request waiting, the init phase also takes its
// slow first picture; a waiting request's own capture is the first instead (docs/capture.md).
const start = config().capture.prelaunch;
if (start === 'warm-up') await warmUp();
else if (start === 'launch') void prelaunch();

/** POST /api/screenshot: the page at `url` as a base64 PNG, from the cache unless `forceRefresh`. */
export const handler = route(
  routes.capturePage,
  async ({ body, signal, context }): Promise<ScreenshotResponse> => {
    const shot = await screenshotService().capture({ ...body, signal, remainingMs: context.getRemainingTimeInMillis() });
    return {
      // A view of the PNG's bytes, not a copy.
      screenshot: Buffer.from(shot.png.buffer, shot.png.byteOffset, shot.png.byteLength).toString('base64'),
      url: shot.url,
      cached: shot.cached,
      strategy: shot.strategy,
      deviceType: shot.deviceType,
      colorScheme: shot.colorScheme,
      ...shot.extent,
      ...(shot.report ? { report: shot.report } : {}),
      ...(shot.redactions ? { redactions: shot.redactions } : {}),
    };
  },
  { rateLimit },
);
