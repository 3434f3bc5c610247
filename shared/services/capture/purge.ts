/** Cache maintenance for the internal purge route: one URL's captures, or all of them. */
import type { CachePurgeRequest, CachePurgeResponse } from '#shared/schemas/screenshot.ts';
import { normaliseTargetUrl } from '#shared/services/capture/target.ts';
import type { CaptureCache } from '#shared/store/capture-cache.ts';

/**
 * Removes cached captures: those of `url` (every device and colour scheme) or, with `all`, every
 * one. A URL is normalised exactly as captures are, so any spelling of it (upper-case host,
 * default port, fragment) purges the same entries.
 */
export async function purgeCaptures(cache: CaptureCache, request: CachePurgeRequest): Promise<CachePurgeResponse> {
  if (request.url !== undefined) {
    const url = normaliseTargetUrl(request.url).href;
    return { purged: await cache.purgeUrl(url), url };
  }
  return { purged: await cache.purgeAll() };
}
