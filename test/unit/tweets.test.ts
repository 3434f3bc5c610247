import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { TtlCache } from '#shared/cache/ttl-cache.ts';
import { SyndicationError, classifyBody, createSyndicationClient, tweetResultUrl, tweetToken } from '#shared/upstreams/syndication.ts';
import type { SyndicationClient, SyndicationResult } from '#shared/upstreams/syndication.ts';
import { TweetNotFoundError, TweetUpstreamError, createTweetService, tweetCacheControl } from '#shared/services/tweets.ts';
import { tweetFixture } from '../support/upstreams.ts';

const FOUND_FIXTURES = readdirSync(join(import.meta.dirname, '..', 'fixtures', 'tweets'))
  .filter((name) => /^\d+\.json$/.test(name))
  .map((name) => name.replace('.json', ''));

describe('tweetToken', () => {
  it.each([
    // The formula of the public embed clients, written out independently of the code under test.
    ['1641086480675225601', ((1641086480675225601 / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, '')],
    ['20', ((20 / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, '')],
  ])('derives the token of %s as public clients do', (id, token) => {
    expect(tweetToken(id)).toBe(token);
  });

  it('builds the tweet-result URL with id, lang and token', () => {
    const url = new URL(tweetResultUrl('https://cdn.syndication.twimg.com', '1641086480675225601'));

    expect(url.origin + url.pathname).toBe('https://cdn.syndication.twimg.com/tweet-result');
    expect(Object.fromEntries(url.searchParams)).toEqual({ id: '1641086480675225601', lang: 'en', token: tweetToken('1641086480675225601') });
  });
});

describe('classifyBody', () => {
  it.each(FOUND_FIXTURES)('reads fixture %s as a found tweet', (id) => {
    const result = classifyBody(tweetFixture(id));

    expect(result).toEqual({ kind: 'found', tweet: JSON.parse(tweetFixture(id)) });
  });

  it.each([
    ['an empty object', '{}', 'empty'],
    ['a tombstone', tweetFixture('tombstone-1'), 'tombstone'],
  ])('reads %s as not found', (_case, body, reason) => {
    expect(classifyBody(body)).toEqual({ kind: 'not-found', reason });
  });

  it.each([
    ['an HTML page', '<!DOCTYPE html><html><body>Something went wrong</body></html>'],
    ['truncated JSON', '{"__typename":"Tweet","id_str":"1'],
    ['a JSON array', '[]'],
    ['JSON null', 'null'],
    ['an error object', '{"errors":[{"message":"Rate limit exceeded","code":88}]}'],
    ['a tweet without a user', '{"__typename":"Tweet","id_str":"1"}'],
  ])('refuses %s', (_case, body) => {
    expect(() => classifyBody(body)).toThrow(SyndicationError);
  });
});

describe('createSyndicationClient', () => {
  it('refuses a body declared larger than 1 MB without reading it, and releases the connection', async () => {
    // Prepare: a body that never ends, so only a cancel releases it
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({ cancel: () => void (cancelled = true) });
    const fetch = vi.fn(async () => new Response(body, { status: 200, headers: { 'content-length': String(2 * 1024 * 1024) } }));
    const client = createSyndicationClient({ upstreamUrl: 'https://cdn.syndication.twimg.com', timeoutMs: 1_000, fetch });

    // Act
    const error = await client.fetchTweet('20').catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(SyndicationError);
    expect(error).toMatchObject({ message: expect.stringContaining('too large') });
    expect(cancelled).toBe(true);
  });
});

describe('TtlCache', () => {
  it('forgets an entry once its lifetime has passed', () => {
    let now = 1_000;
    const cache = new TtlCache<string, number>({ maxEntries: 10, ttlMs: 500, now: () => now });
    cache.set('a', 1);

    now = 1_499;
    expect(cache.get('a')).toBe(1);
    now = 1_500;
    expect(cache.get('a')).toBeUndefined();
  });

  it('evicts the least recently used entry when full', () => {
    const cache = new TtlCache<string, number>({ maxEntries: 2, ttlMs: 60_000 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');

    cache.set('c', 3);

    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
  });

  it('keeps nothing when its lifetime is 0', () => {
    const cache = new TtlCache<string, number>({ maxEntries: 2, ttlMs: 0 });
    cache.set('a', 1);

    expect(cache.size).toBe(0);
  });
});

describe('createTweetService', () => {
  const settings = { cacheSeconds: 300, staleSeconds: 3600 };
  const tweet = JSON.parse(tweetFixture('1641086480675225601')) as Record<string, unknown>;
  const client = (answer: () => Promise<SyndicationResult>) => ({ fetchTweet: vi.fn(answer) }) satisfies SyndicationClient;

  it('serves a found tweet from its cache until the lifetime ends', async () => {
    let now = 0;
    const upstream = client(async () => ({ kind: 'found', tweet }));
    const service = createTweetService({ client: upstream, settings, now: () => now });

    await service.getTweet('1');
    now = 299_000;
    await service.getTweet('1');
    now = 300_000;
    await service.getTweet('1');

    expect(upstream.fetchTweet).toHaveBeenCalledTimes(2);
  });

  it('makes one upstream call for concurrent requests of the same id', async () => {
    const upstream = client(() => new Promise((resolve) => setTimeout(() => resolve({ kind: 'found', tweet }), 20)));
    const service = createTweetService({ client: upstream, settings });

    const results = await Promise.all([service.getTweet('7'), service.getTweet('7'), service.getTweet('7')]);

    expect(results).toEqual([tweet, tweet, tweet]);
    expect(upstream.fetchTweet).toHaveBeenCalledTimes(1);
  });

  it.each(['status-404', 'empty', 'tombstone'] as const)('answers not found (%s) with the 404 envelope error carrying data: null, uncached', async (reason) => {
    const upstream = client(async () => ({ kind: 'not-found', reason }));
    const service = createTweetService({ client: upstream, settings });

    const error = await service.getTweet('1').catch((caught: unknown) => caught);
    await service.getTweet('1').catch(() => undefined);

    expect(error).toBeInstanceOf(TweetNotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', extra: { data: null } });
    expect(upstream.fetchTweet).toHaveBeenCalledTimes(2);
  });

  it('turns an upstream failure into 500 upstream_failed carrying data: null, uncached', async () => {
    const upstream = client(async () => {
      throw new SyndicationError('upstream answered 503');
    });
    const service = createTweetService({ client: upstream, settings });

    const error = await service.getTweet('1').catch((caught: unknown) => caught);
    await service.getTweet('1').catch(() => undefined);

    expect(error).toBeInstanceOf(TweetUpstreamError);
    expect(error).toMatchObject({ status: 500, code: 'upstream_failed', extra: { data: null } });
    expect(upstream.fetchTweet).toHaveBeenCalledTimes(2);
  });
});

describe('tweetCacheControl', () => {
  it.each([
    [{ cacheSeconds: 300, staleSeconds: 3600 }, 'public, max-age=60, s-maxage=300, stale-while-revalidate=3600'],
    [{ cacheSeconds: 30, staleSeconds: 0 }, 'public, max-age=30, s-maxage=30, stale-while-revalidate=0'],
    [{ cacheSeconds: 0, staleSeconds: 3600 }, 'no-cache'],
  ])('gives %j the header %s', (settings, header) => {
    expect(tweetCacheControl(settings)).toBe(header);
  });
});
