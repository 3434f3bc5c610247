/**
 * The tweet service of this container, on the syndication upstream, built from configuration on
 * first use; its in-container cache of found tweets lives as long as the container.
 */
import { config } from '#shared/config.ts';
import { createTweetService } from '#shared/services/tweets.ts';
import type { TweetService } from '#shared/services/tweets.ts';
import { createSyndicationClient } from '#shared/upstreams/syndication.ts';

let service: TweetService | undefined;

/** The container's tweet service. */
export function tweetService(): TweetService {
  const settings = config().tweets;
  service ??= createTweetService({ client: createSyndicationClient(settings), settings });
  return service;
}
