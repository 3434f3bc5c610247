/** The capture metrics (shared/metrics.ts) of every request, around any screenshot service. */
import { HttpError } from '#shared/errors.ts';
import { emitMetrics } from '#shared/metrics.ts';
import type { MetricPoint } from '#shared/metrics.ts';
import type { Strategy } from '#shared/services/capture/browsers.ts';
import { credentialsOf } from '#shared/services/capture/options.ts';
import type { ScreenshotService } from '#shared/services/capture/screenshot-service.ts';

/** Counts captures by status and strategy (`cache` for a hit, the backend's on a failure), cache hits, misses and truncations. */
export function withCaptureMetrics(service: ScreenshotService, strategy: Strategy): ScreenshotService {
  return {
    async capture(request) {
      try {
        const result = await service.capture(request);
        const points: MetricPoint[] = [{ name: 'Captures', value: 1, dimensions: { Status: '200', Strategy: result.cached ? 'cache' : result.strategy } }];
        if (result.cached) points.push({ name: 'CacheHits', value: 1, dimensions: { Cache: 'capture' } });
        // A refresh, or a capture with credentials (never cached), looks nothing up.
        else if (!request.forceRefresh && !credentialsOf(request)) points.push({ name: 'CacheMisses', value: 1, dimensions: { Cache: 'capture' } });
        if (result.extent?.truncated) points.push({ name: 'TruncatedCaptures', value: 1 });
        emitMetrics(points);
        return result;
      } catch (error) {
        const status = error instanceof HttpError ? error.status : 500;
        emitMetrics([{ name: 'Captures', value: 1, dimensions: { Status: String(status), Strategy: strategy } }]);
        throw error;
      }
    },
  };
}
