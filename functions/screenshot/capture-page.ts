import { route } from '#shared/http/route.ts';
import { rateLimit } from '#shared/wiring/rate-limit.ts';
import type { ScreenshotResponse } from '#shared/schemas/screenshot.ts';
import { screenshotService, warmUp } from '#shared/wiring/capture.ts';
import { config } from '#shared/config.ts';
import * as routes from '#shared/routes/screenshot.ts';

// Start Chromium during the cold start, where Lambda's init phase runs at full CPU.
if (config().capture.prelaunch) void warmUp();

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
