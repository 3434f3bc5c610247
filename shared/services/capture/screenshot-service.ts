/** Page capture: normalise and vet the URL, answer from the cache unless told not to, else capture and cache. */
import { InvalidRequestError, UpstreamUnavailableError } from '#shared/errors.ts';
import { log, serializeError } from '#shared/log.ts';
import { fitResponse } from '#shared/services/capture/answer-size.ts';
import type { BrowserBackend, Strategy } from '#shared/services/capture/browsers.ts';
import { DEVICES, SCREEN_PX, viewportPixels } from '#shared/services/capture/devices.ts';
import type { ColorScheme, DeviceType } from '#shared/services/capture/devices.ts';
import { capturePng } from '#shared/services/capture/page-capture.ts';
import { captureOptionsOf, credentialsOf, optionsVariant } from '#shared/services/capture/options.ts';
import type { CaptureCredentials, CaptureOptions } from '#shared/services/capture/options.ts';
import { normaliseTargetUrl } from '#shared/services/capture/target.ts';
import type { TargetGuard } from '#shared/services/capture/target.ts';
import type { CaptureCache, CaptureExtent } from '#shared/store/capture-cache.ts';
import { MAX_CAPTURE_PIXELS } from '#shared/schemas/screenshot.ts';
import type { CaptureReport } from '#shared/schemas/screenshot.ts';
import type { Redaction } from '#shared/schemas/redaction.ts';

export interface ScreenshotRequest extends Partial<CaptureOptions>, CaptureCredentials {
  url: string;
  deviceType: DeviceType;
  colorScheme: ColorScheme;
  forceRefresh: boolean;
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
  extent?: CaptureExtent;
  /** What the capture did and found; absent on a cache entry older than reports. */
  report?: CaptureReport;
  redactions?: Redaction[];
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

/** Redaction boxes a cache item holds at most (≈ 60 bytes each, within DynamoDB's 400 KB item). */
const MAX_CACHED_REDACTIONS = 2_000;

// Kept beyond the capture time-out: for caching and answering, and for shrinking a capture too large (docs/capture.md, "Size").
const RESPONSE_RESERVE_MS = 2_000;
const RECOMPRESS_RESERVE_MS = 5_000;

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

/** 400 naming viewport when, at the capture's scale, it would not fit one picture of the screen. */
function assertViewportFits(options: CaptureOptions, device: DeviceType): void {
  if (!options.viewport) return;
  const scale = options.scale ?? DEVICES[device].deviceScaleFactor;
  const { width, height, fits } = viewportPixels(options.viewport, scale);
  if (fits) return;
  throw new InvalidRequestError(
    'Invalid viewport',
    `viewport: ${options.viewport.width}×${options.viewport.height} at scale ${scale} is ${width}×${height} image pixels; a screen is at most ${SCREEN_PX} pixels a side and ${MAX_CAPTURE_PIXELS} in all. Lower scale or the viewport.`,
  );
}

export function createScreenshotService(deps: ScreenshotServiceDeps): ScreenshotService {
  return {
    async capture(request) {
      const invocationEnd = performance.now() + (request.remainingMs ?? Infinity);
      const url = normaliseTargetUrl(request.url);
      // The cache key is also what the response echoes.
      const key = { url: url.href, deviceType: request.deviceType, colorScheme: request.colorScheme };
      const options = captureOptionsOf(request);
      assertViewportFits(options, request.deviceType);
      const variant = optionsVariant(options, request.deviceType);
      const cacheKey = variant ? { ...key, variant } : key;
      // A signed-in page is one person's: it is neither served from nor written to the shared cache.
      const credentials = credentialsOf(request);

      if (!request.forceRefresh && !credentials) {
        const hit = await bestEffort('read', () => deps.cache.get(cacheKey));
        if (hit)
          return {
            ...key,
            url: hit.drawnUrl ?? key.url,
            png: hit.png,
            cached: true,
            strategy: hit.strategy as Strategy,
            ...(hit.extent ? { extent: hit.extent } : {}),
            ...(hit.report ? { report: hit.report } : {}),
            ...(hit.redactions ? { redactions: hit.redactions } : {}),
          };
      }

      // Before any browser work, so a refused target costs no capture; redirects and sub-requests are checked again.
      await deps.guard.assertCapturable(url);
      const mayBeLarge = options.fullPage || options.selector !== undefined || options.scale === 3;
      const reserve = RESPONSE_RESERVE_MS + (mayBeLarge ? RECOMPRESS_RESERVE_MS : 0);
      const timeoutMs = Math.min(deps.timeoutMs, (request.remainingMs ?? Infinity) - reserve);
      const lease = await deps.browsers.acquire();
      const started = performance.now();
      const shot = await capturePng(
        lease,
        {
          url,
          deviceType: request.deviceType,
          colorScheme: request.colorScheme,
          timeoutMs: Math.max(timeoutMs, 1),
          signal: request.signal,
          options,
          credentials,
        },
        deps.guard,
      );
      log.info('page captured', { strategy: lease.strategy, ms: Math.round(performance.now() - started), bytes: shot.png.byteLength });
      // Within the capture's budget and never into what caching and answering need.
      const answerBy = Math.min(started + Math.max(timeoutMs, 1) + RECOMPRESS_RESERVE_MS, invocationEnd - RESPONSE_RESERVE_MS);
      const png = await fitResponse(shot.png, { budgetMs: answerBy - performance.now(), signal: request.signal });
      const extent = shot.extent ? { extent: shot.extent } : {};
      const redactions = shot.redactions ? { redactions: shot.redactions } : {};
      // The answer names the document drawn; the cache stays keyed by the address asked for.
      const drawnUrl = shot.url !== key.url ? { drawnUrl: shot.url } : {};
      // A page covered in findings would outgrow a cache item: such a capture is answered, not kept.
      const cacheable = !credentials && (shot.redactions?.length ?? 0) <= MAX_CACHED_REDACTIONS;
      if (cacheable)
        await bestEffort('write', () =>
          deps.cache.put(cacheKey, { png, strategy: lease.strategy, ...drawnUrl, ...extent, report: shot.report, ...redactions }, deps.cacheTtlSeconds),
        );
      return { ...key, url: shot.url, png, cached: false, strategy: lease.strategy, ...extent, report: shot.report, ...redactions };
    },
  };
}
