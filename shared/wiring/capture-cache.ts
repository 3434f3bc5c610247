/** The container's capture cache, apart from the browser wiring so the purge function bundles no browser. */
import { dynamo } from '#shared/wiring/dynamo.ts';
import { s3 } from '#shared/wiring/s3.ts';
import { config } from '#shared/config.ts';
import { s3DynamoCaptureCache } from '#shared/store/capture-cache.ts';
import type { CaptureCache } from '#shared/store/capture-cache.ts';
import { EXPRESS_CACHE } from '#shared/resources.ts';

let cache: CaptureCache | undefined;

export function captureCache(): CaptureCache {
  const cfg = config();
  const { cache: bucket, cacheExpress } = cfg.buckets;
  cache ??= s3DynamoCaptureCache({
    dynamo,
    s3,
    table: cfg.tables.cache,
    bucket,
    ...(cacheExpress ? { express: { bucket: cacheExpress, maxBytes: EXPRESS_CACHE.maxBytes } } : {}),
  });
  return cache;
}
