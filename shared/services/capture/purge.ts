/** Cache maintenance for the internal purge route: one URL's captures, or all of them. */
import type { CachePurgeRequest, CachePurgeResponse } from '#shared/schemas/screenshot.ts';
import { normaliseTargetUrl } from '#shared/services/capture/target.ts';
import type { CaptureCache } from '#shared/store/capture-cache.ts';

/** `url` is normalised as captures are, so any spelling of it purges the same entries. */
export async function purgeCaptures(cache: CaptureCache, request: CachePurgeRequest): Promise<CachePurgeResponse> {
  if (request.url !== undefined) {
    const url = normaliseTargetUrl(request.url).href;
    return { purged: await cache.purgeUrl(url), url };
  }
  return { purged: await cache.purgeAll() };
}
