/** Tweet lookup: found tweets kept briefly and concurrent look-ups shared, because the upstream rate-limits shared cloud address ranges. */
import type { TweetSettings } from '#shared/config.ts';
import { HttpError, UpstreamFailedError } from '#shared/errors.ts';
import { TtlCache } from '#shared/cache/ttl-cache.ts';
import { emitMetrics } from '#shared/metrics.ts';
import { SyndicationError } from '#shared/upstreams/syndication.ts';
import type { SyndicationClient } from '#shared/upstreams/syndication.ts';

/** 404 of the tweet route. Carries `data: null` so the body also reads as a tweet response. */
export class TweetNotFoundError extends HttpError {
  override readonly name: string = 'TweetNotFoundError';
  constructor(reason: 'status-404' | 'empty' | 'tombstone') {
    super({
      status: 404,
      code: 'not_found',
      message: 'Tweet not found',
      hint:
        reason === 'tombstone'
          ? 'The tweet was deleted or its author made it private; only public tweets can be looked up.'
          : 'No public tweet has this status ID; check the number at the end of the tweet URL.',
      extra: { data: null },
    });
  }
}

/** 500 of the tweet route when the upstream fails; also carries `data: null`. */
export class TweetUpstreamError extends UpstreamFailedError {
  override readonly name: string = 'TweetUpstreamError';
  constructor(cause: unknown) {
    super({ status: 500, hint: 'The tweet service did not give a usable answer; retry in a minute.', cause, extra: { data: null }, origin: 'upstream' });
  }
}

/** Found tweets kept per container; payloads are small, so this bounds memory. */
const MAX_CACHED_TWEETS = 500;

export interface TweetService {
  /** TweetNotFoundError for no such tweet, TweetUpstreamError when the upstream fails. */
  getTweet(id: string, signal?: AbortSignal): Promise<Record<string, unknown>>;
  /** Cache-Control of a found tweet: browsers briefly, shared caches for the configured time. */
  readonly cacheControl: string;
}

export interface TweetServiceDeps {
  client: SyndicationClient;
  settings: Pick<TweetSettings, 'cacheSeconds' | 'staleSeconds'>;
  now?: () => number;
}

export function tweetCacheControl(settings: Pick<TweetSettings, 'cacheSeconds' | 'staleSeconds'>): string {
  if (settings.cacheSeconds === 0) return 'no-cache';
  const browser = Math.min(60, settings.cacheSeconds);
  return `public, max-age=${browser}, s-maxage=${settings.cacheSeconds}, stale-while-revalidate=${settings.staleSeconds}`;
}

/** Only found tweets are cached; not-found answers and failures never are. */
export function createTweetService(deps: TweetServiceDeps): TweetService {
  const cache = new TtlCache<string, Record<string, unknown>>({ maxEntries: MAX_CACHED_TWEETS, ttlMs: deps.settings.cacheSeconds * 1000, now: deps.now });
  const inFlight = new Map<string, Promise<Record<string, unknown>>>();

  const load = async (id: string, signal?: AbortSignal) => {
    let result;
    try {
      result = await deps.client.fetchTweet(id, signal);
    } catch (error) {
      throw error instanceof SyndicationError ? new TweetUpstreamError(error) : error;
    }
    if (result.kind === 'not-found') throw new TweetNotFoundError(result.reason);
    cache.set(id, result.tweet);
    return result.tweet;
  };

  return {
    cacheControl: tweetCacheControl(deps.settings),
    async getTweet(id, signal) {
      const cached = cache.get(id);
      emitMetrics([{ name: cached ? 'CacheHits' : 'CacheMisses', value: 1, dimensions: { Cache: 'tweet' } }]);
      if (cached) return cached;
      let pending = inFlight.get(id);
      if (!pending) {
        pending = load(id, signal).finally(() => inFlight.delete(id));
        inFlight.set(id, pending);
      }
      return pending;
    },
  };
}
