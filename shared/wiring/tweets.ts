/** The container's tweet service; its cache of found tweets lives as long as the container. */
import { config } from '#shared/config.ts';
import { createTweetService } from '#shared/services/tweets.ts';
import type { TweetService } from '#shared/services/tweets.ts';
import { createSyndicationClient } from '#shared/upstreams/syndication.ts';

let service: TweetService | undefined;

export function tweetService(): TweetService {
  const settings = config().tweets;
  service ??= createTweetService({ client: createSyndicationClient(settings), settings });
  return service;
}
