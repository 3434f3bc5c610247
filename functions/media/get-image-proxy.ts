import { canStream, reply } from '#shared/http/reply.ts';
import { route } from '#shared/http/route.ts';
import { mediaProxy } from '#shared/wiring/media-proxy.ts';
import * as routes from '#shared/routes/media.ts';

/** GET /api/image-proxy?url=: relays an allowlisted media file from our origin, for untainted canvas use. */
export const handler = route(routes.getImageProxy, async ({ query, event, context, signal }) => {
  const proxy = mediaProxy();
  const media = await proxy.proxy({ url: query.url, headers: event.headers ?? {}, buffered: !canStream(context), signal });
  if (!media.body) return reply.empty(media.status, { headers: media.headers });
  return reply.stream(media.body, media.status, { headers: media.headers, tooLarge: proxy.tooLarge });
});
