import { readdirSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TtlCache } from '#shared/cache/ttl-cache.ts';
import { SyndicationError, classifyBody, createSyndicationClient, tweetResultUrl, tweetToken } from '#shared/upstreams/syndication.ts';
import type { SyndicationClient, SyndicationResult } from '#shared/upstreams/syndication.ts';
import { TweetNotFoundError, TweetUpstreamError, createTweetService, tweetCacheControl } from '#shared/services/tweets.ts';
import { createMediaCertificate, startStub, startTlsStub, tweetFixture, type StubAnswer, type StubServer } from '../support/upstreams.ts';

const FOUND_FIXTURES = readdirSync(join(import.meta.dirname, '..', 'fixtures', 'tweets'))
  .filter((name) => /^\d+\.json$/.test(name))
  .map((name) => name.replace('.json', ''));

describe('tweetToken', () => {
  it.each([
    // The formula of the public embed clients, written out independently of the code under test.
    ['1641086480675225601', ((Number('1641086480675225601') / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, '')],
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
  const ID = '1641086480675225601';
  const TWEET = tweetFixture(ID);
  const json = { 'content-type': 'application/json; charset=utf-8' };
  let upstream: StubServer;

  beforeAll(async () => {
    upstream = await startStub();
  });
  afterAll(() => upstream.close());
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  const client = (timeoutMs = 1_000) => createSyndicationClient({ upstreamUrl: upstream.url, timeoutMs });
  // The path and query the client asks for: the URL on an empty origin.
  const answer = (stub: StubAnswer) => upstream.on(tweetResultUrl('', ID), stub);
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('resolved'),
      (caught: unknown) => caught,
    );

  it('asks for JSON, offering the codings it decodes', async () => {
    // Prepare
    answer({ headers: json, body: TWEET });

    // Act
    const result = await client().fetchTweet(ID);

    // Assess
    expect(result).toEqual({ kind: 'found', tweet: JSON.parse(TWEET) });
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]).toMatchObject({ method: 'GET', headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate' } });
  });

  it.each([
    ['gzip', 'gzip', gzipSync(TWEET)],
    ['x-gzip', 'x-gzip', gzipSync(TWEET)],
    ['deflate (zlib format)', 'deflate', deflateSync(TWEET)],
    ['deflate (raw, as some servers send it)', 'deflate', deflateRawSync(TWEET)],
    ['br', 'br', brotliCompressSync(TWEET)],
    ['deflate, gzip (two codings, the last applied first undone)', 'deflate, gzip', gzipSync(deflateSync(TWEET))],
  ])('decodes a body sent with Content-Encoding %s', async (_case, coding, body) => {
    answer({ headers: { ...json, 'content-encoding': coding }, body });

    const result = await client().fetchTweet(ID);

    expect(result).toEqual({ kind: 'found', tweet: JSON.parse(TWEET) });
  });

  it('refuses a body declared larger than 1 MB without reading it, and releases the connection', async () => {
    // Prepare: headers that promise 2 MB, then a body that never ends, so only closing the connection ends it
    let released = false;
    answer({
      raw: (socket) => {
        socket.on('close', () => void (released = true));
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${2 * 1024 * 1024}\r\n\r\n{"__typename":`);
      },
    });

    // Act
    const error = await failure(client().fetchTweet(ID));

    // Assess
    expect(error).toBeInstanceOf(SyndicationError);
    expect(error).toMatchObject({ message: 'body of 2097152 bytes is too large' });
    await vi.waitFor(() => expect(released).toBe(true), { timeout: 500 });
  });

  it('stops reading a body without Content-Length once it passes 1 MB', async () => {
    answer({ headers: json, chunks: Array.from({ length: 5 }, () => Buffer.alloc(256 * 1024, 0x20)) });

    const error = await failure(client().fetchTweet(ID));

    expect(error).toBeInstanceOf(SyndicationError);
    expect(error).toMatchObject({ message: 'body is larger than 1048576 bytes' });
  });

  it('refuses a small compressed body that decodes to more than 1 MB', async () => {
    answer({ headers: { ...json, 'content-encoding': 'gzip' }, body: gzipSync(Buffer.alloc(2 * 1024 * 1024, 0x20)) });

    const error = await failure(client().fetchTweet(ID));

    expect(error).toBeInstanceOf(SyndicationError);
    expect(error).toMatchObject({ message: 'body is larger than 1048576 bytes once decoded' });
  });

  it('fails on a redirect without following it', async () => {
    answer({ status: 302, headers: { location: `${upstream.url}/elsewhere` }, body: '' });
    upstream.on('/elsewhere', { headers: json, body: TWEET });

    const error = await failure(client().fetchTweet(ID));

    expect(error).toBeInstanceOf(SyndicationError);
    expect(error).toMatchObject({ message: 'upstream redirected (302); redirects are not followed' });
    expect(upstream.requests.map((request) => new URL(request.path, 'http://stub').pathname)).toEqual(['/tweet-result']);
  });

  it('counts the time-out over the body too, not only until the headers', async () => {
    // Prepare: headers at once, then the body in pieces that outlast the time-out
    answer({ headers: json, chunks: [Buffer.from(TWEET.slice(0, 10)), Buffer.from(TWEET.slice(10))], chunkDelayMs: 1_000 });
    const started = performance.now();

    // Act
    const error = await failure(client(200).fetchTweet(ID));

    // Assess
    expect(error).toBeInstanceOf(SyndicationError);
    expect(error).toMatchObject({ message: 'no answer within 200 ms' });
    expect(performance.now() - started).toBeLessThan(900);
  });

  it('gives up when the caller aborts, as a failed request rather than a time-out', async () => {
    answer({ headers: json, body: TWEET, delayMs: 1_000 });
    const caller = new AbortController();
    setTimeout(() => caller.abort(), 50);

    const error = await failure(client().fetchTweet(ID, caller.signal));

    expect(error).toBeInstanceOf(SyndicationError);
    expect(error).toMatchObject({ message: 'request failed' });
  });

  it('speaks TLS to an https origin and refuses a certificate it does not trust', async () => {
    // Prepare: an HTTPS stand-in with a self-signed certificate that would otherwise answer the tweet
    const certificate = createMediaCertificate();
    const tls = await startTlsStub(certificate, () => ({ headers: json, body: TWEET }));
    const https = createSyndicationClient({ upstreamUrl: `https://127.0.0.1:${tls.port}`, timeoutMs: 1_000 });

    try {
      // Act
      const error = await failure(https.fetchTweet(ID));

      // Assess: the handshake failed, so no request reached the server
      expect(error).toBeInstanceOf(SyndicationError);
      expect(error).toMatchObject({ message: 'request failed', cause: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } });
      expect(tls.requests).toEqual([]);
    } finally {
      await tls.close();
      certificate.dispose();
    }
  });

  describe('on a kept-alive connection the upstream has dropped', () => {
    // A raw server: it answers the first request on a connection and resets the connection when a
    // second one arrives on it, as a peer that closed it while a frozen Lambda could not hear.
    let raw: Server;
    let origin = '';
    const connections: number[] = [];
    beforeAll(async () => {
      raw = createServer((socket) => {
        const index = connections.push(0) - 1;
        open.add(socket);
        socket.on('close', () => open.delete(socket));
        socket.on('data', () => {
          connections[index]! += 1;
          if (connections[index]! > 1 || failEveryFirst) return socket.resetAndDestroy();
          socket.write(
            `HTTP/1.1 200 OK\r\nconnection: keep-alive\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(TWEET)}\r\n\r\n${TWEET}`,
          );
        });
      });
      await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => raw.close(() => resolve())));
    const open = new Set<Socket>();
    let failEveryFirst = false;
    beforeEach(async () => {
      // Each test starts with no connection kept alive: the client hears these close while idle.
      for (const socket of open) socket.end();
      await vi.waitFor(() => expect(open.size).toBe(0));
      await new Promise((resolve) => setTimeout(resolve, 10));
      connections.length = 0;
      failEveryFirst = false;
    });

    it('sends the GET again on a new connection, once, and answers', async () => {
      const fresh = createSyndicationClient({ upstreamUrl: origin, timeoutMs: 1_000 });

      await expect(fresh.fetchTweet(ID)).resolves.toMatchObject({ kind: 'found' });
      await expect(fresh.fetchTweet(ID)).resolves.toMatchObject({ kind: 'found' });

      // The second call reused the first connection, was reset, and went out again on a new one.
      expect(connections).toEqual([2, 1]);
    });

    it('does not send it again when a new connection fails the same way', async () => {
      failEveryFirst = true;
      const fresh = createSyndicationClient({ upstreamUrl: origin, timeoutMs: 1_000 });

      const error = await failure(fresh.fetchTweet(ID));

      expect(error).toMatchObject({ message: 'request failed', cause: expect.objectContaining({ code: 'ECONNRESET' }) });
      expect(connections).toEqual([1]);
    });
  });

  it('fails when the connection closes before the body ends', async () => {
    answer({ raw: (socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"__typename":') });

    const error = await failure(client().fetchTweet(ID));

    expect(error).toBeInstanceOf(SyndicationError);
    expect(error).toMatchObject({ message: 'request failed' });
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
