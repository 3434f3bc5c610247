import { reply } from '#shared/http/reply.ts';
import { route } from '#shared/http/route.ts';
import { tweetService } from '#shared/wiring/tweets.ts';
import * as routes from '#shared/routes/tweets.ts';

/** GET /api/tweet/{id}: the public payload of a tweet, cacheable by a CDN when found. */
export const handler = route(routes.getTweet, async ({ params, signal }) => {
  const tweets = tweetService();
  const tweet = await tweets.getTweet(params.id, signal);
  return reply.json({ data: tweet }, 200, { headers: { 'Cache-Control': tweets.cacheControl } });
});
