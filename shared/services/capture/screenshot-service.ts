/** Page capture: normalise and vet the URL, answer from the cache unless told not to, else capture and cache. */
import { UpstreamFailedError, UpstreamUnavailableError } from '#shared/errors.ts';
import { log, serializeError } from '#shared/log.ts';
import type { BrowserBackend, Strategy } from '#shared/services/capture/browsers.ts';
import type { ColorScheme, DeviceType } from '#shared/services/capture/devices.ts';
import { capturePng } from '#shared/services/capture/page-capture.ts';
import { normaliseTargetUrl } from '#shared/services/capture/target.ts';
import type { TargetGuard } from '#shared/services/capture/target.ts';
import type { CaptureCache } from '#shared/store/capture-cache.ts';

/** Largest PNG a response can carry: Lambda's response limit holds it base64-encoded, plus the JSON. */
export const MAX_PNG_BYTES = 4_600_000;

export interface ScreenshotRequest {
  url: string;
  deviceType: DeviceType;
  colorScheme: ColorScheme;
  forceRefresh: boolean;
  /** Aborted when the invocation is about to time out. */
  signal?: AbortSignal;
  /** Milliseconds this invocation has left; the capture time-out shrinks to fit it. */
  remainingMs?: number;
}

export interface ScreenshotResult {
  png: Uint8Array;
  url: string;
  cached: boolean;
  strategy: Strategy;
  deviceType: DeviceType;
  colorScheme: ColorScheme;
}

export interface ScreenshotServiceDeps {
  browsers: BrowserBackend;
  guard: TargetGuard;
  cache: CaptureCache;
  timeoutMs: number;
  cacheTtlSeconds: number;
}

export interface ScreenshotService {
  capture(request: ScreenshotRequest): Promise<ScreenshotResult>;
}

// What the invocation keeps, beyond the capture time-out, for caching and answering.
const RESPONSE_RESERVE_MS = 2_000;

/** The cache only saves work: its outage means an uncached capture, not a 503; other errors still fail. */
async function bestEffort<T>(step: 'read' | 'write', work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof UpstreamUnavailableError)) throw error;
    log.warn('capture cache unavailable', { step, error: serializeError(error) });
    return undefined;
  }
}

export function createScreenshotService(deps: ScreenshotServiceDeps): ScreenshotService {
  return {
    async capture(request) {
      const url = normaliseTargetUrl(request.url);
      // The cache key is also what the response echoes.
      const key = { url: url.href, deviceType: request.deviceType, colorScheme: request.colorScheme };

      if (!request.forceRefresh) {
        const hit = await bestEffort('read', () => deps.cache.get(key));
        if (hit) return { ...key, png: hit.png, cached: true, strategy: hit.strategy as Strategy };
      }

      // Before any browser work, so a refused target never costs a capture; redirects and
      // sub-requests are checked again while the page loads.
      await deps.guard.assertCapturable(url);
      const timeoutMs = Math.min(deps.timeoutMs, (request.remainingMs ?? Infinity) - RESPONSE_RESERVE_MS);
      const lease = await deps.browsers.acquire();
      const started = performance.now();
      const png = await capturePng(
        lease,
        { url, deviceType: request.deviceType, colorScheme: request.colorScheme, timeoutMs: Math.max(timeoutMs, 1), signal: request.signal },
        deps.guard,
      );
      log.info('page captured', { strategy: lease.strategy, ms: Math.round(performance.now() - started), bytes: png.byteLength });
      if (png.byteLength > MAX_PNG_BYTES) {
        throw new UpstreamFailedError({ hint: `The capture (${png.byteLength} bytes) is larger than a response can carry; capture a simpler page.` });
      }
      await bestEffort('write', () => deps.cache.put(key, { png, strategy: lease.strategy }, deps.cacheTtlSeconds));
      return { ...key, png, cached: false, strategy: lease.strategy };
    },
  };
}
