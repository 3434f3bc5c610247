import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cardImageUrls, tweetView } from '#editor/src/model/tweet.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { startMediaUpstream, type MediaUpstream } from '../support/media-upstream.ts';
import { startStub, tweetFixture, type StubAnswer, type StubServer } from '../support/upstreams.ts';
import { expectedEnvelope } from '../support/expectations.ts';

const FOUND = readdirSync(join(import.meta.dirname, '..', 'fixtures', 'tweets'))
  .filter((name) => /^\d+\.json$/.test(name))
  .map((name) => name.replace('.json', ''));

// Ids the stand-in answers in a particular way; any other id gets its fixture, or 404.
const SPECIAL: Record<string, StubAnswer> = {
  '1000000000000000001': { status: 404, body: '' },
  '1000000000000000002': { headers: { 'content-type': 'application/json' }, body: '{}' },
  '1000000000000000003': { headers: { 'content-type': 'application/json' }, body: tweetFixture('tombstone-1') },
  '1000000000000000004': { headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html><body>Blocked</body></html>' },
  '1000000000000000005': { status: 503, body: 'unavailable' },
  '1000000000000000006': { headers: { 'content-type': 'application/json' }, body: '{"errors":[{"code":88,"message":"Rate limit exceeded"}]}' },
  '1000000000000000007': { status: 429, body: 'slow down' },
  '1000000000000000008': { delayMs: 3_000, body: '{}' },
  '1000000000000000009': { headers: { 'content-type': 'application/json' }, body: '{"__typename":"Tweet",' },
};

let upstream: StubServer;
let media: MediaUpstream;
let runtime: TestRuntime;

beforeAll(async () => {
  media = await startMediaUpstream();
  upstream = await startStub((req) => {
    const query = new URL(req.url ?? '/', 'http://stub').searchParams;
    const id = query.get('id') ?? '';
    // The real upstream wants the token public clients send; refuse a request without the right one.
    const token = ((Number(id) / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, '');
    if (query.get('token') !== token || query.get('lang') !== 'en') return { status: 400, body: 'bad token' };
    if (SPECIAL[id]) return SPECIAL[id]!;
    if (FOUND.includes(id)) return { headers: { 'content-type': 'application/json; charset=utf-8' }, body: tweetFixture(id) };
    return { status: 404, body: '' };
  });
  Object.assign(process.env, media.env);
  process.env.TWEET_UPSTREAM_URL = upstream.url;
  process.env.TWEET_TIMEOUT_MS = '500';
  process.env.TWEET_CACHE_SECONDS = '120';
  process.env.TWEET_STALE_SECONDS = '600';
  runtime = await startTestRuntime();
});

afterAll(async () => {
  await runtime?.dispose();
  await upstream?.close();
  await media?.close();
});

beforeEach(() => {
  upstream.requests.length = 0;
});

const envelope = (status: number, code: string) => expectedEnvelope(runtime.url, status, code);

describe('GET /api/tweet/{id}', () => {
  it.each(FOUND)('answers 200 with the payload of tweet %s and CDN cache headers', async (id) => {
    const response = await fetch(`${runtime.url}/api/tweet/${id}`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=120, stale-while-revalidate=600');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ data: JSON.parse(tweetFixture(id)) });
  });

  it('serves a repeated lookup from its cache without asking the upstream again', async () => {
    const id = '1647619002162884609';
    await fetch(`${runtime.url}/api/tweet/${id}`);
    upstream.requests.length = 0;

    const response = await fetch(`${runtime.url}/api/tweet/${id}`);

    expect(response.status).toBe(200);
    expect(upstream.requests).toEqual([]);
  });

  it('asks the upstream with the id, lang=en and the derived token', async () => {
    // Not found is never cached, so this id always reaches the stand-in, which refuses a wrong token with 400.
    const response = await fetch(`${runtime.url}/api/tweet/1000000000000000001`);

    expect(response.status).toBe(404);
    const seen = upstream.requests.map((request) => new URL(request.path, 'http://stub'));
    expect(seen.map((url) => url.pathname)).toEqual(['/tweet-result']);
    expect(Object.fromEntries(seen[0]!.searchParams)).toEqual({
      id: '1000000000000000001',
      lang: 'en',
      token: ((Number('1000000000000000001') / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, ''),
    });
  });

  it.each([
    ['an HTTP 404', '1000000000000000001'],
    ['an empty object', '1000000000000000002'],
    ['a tombstone', '1000000000000000003'],
    ['an id the upstream does not know', '1999999999999999999'],
  ])('answers %s with 404 not_found, data: null and no caching', async (_case, id) => {
    const response = await fetch(`${runtime.url}/api/tweet/${id}`);

    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ ...envelope(404, 'not_found'), data: null });
  });

  it.each([
    ['an HTML page', '1000000000000000004'],
    ['a 503', '1000000000000000005'],
    ['an unexpected JSON shape', '1000000000000000006'],
    ['a 429', '1000000000000000007'],
    ['no answer within the time-out', '1000000000000000008'],
    ['truncated JSON', '1000000000000000009'],
  ])('answers %s from the upstream with 500 upstream_failed and data: null', async (_case, id) => {
    const response = await fetch(`${runtime.url}/api/tweet/${id}`);

    expect(response.status).toBe(500);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ ...envelope(500, 'upstream_failed'), data: null });
  });

  it.each([
    ['letters', 'abc'],
    ['a negative number', '-1'],
    ['a decimal', '1.5'],
    ['21 digits', '123456789012345678901'],
    ['an encoded slash', '12%2F34'],
  ])('refuses an id of %s with 400 invalid_request before asking the upstream', async (_case, id) => {
    const response = await fetch(`${runtime.url}/api/tweet/${id}`);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(envelope(400, 'invalid_request'));
    expect(upstream.requests).toEqual([]);
  });

  it('answers POST with 405 and Allow: GET', async () => {
    const response = await fetch(`${runtime.url}/api/tweet/1`, { method: 'POST' });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toEqual(envelope(405, 'method_not_allowed'));
  });
});

describe('GET /api/tweet/{id} for what a tweet card draws', () => {
  const QUOTE = '1641895049427550208';
  const CARD = '1629262255744503809';
  const VIDEO = '1674420258080452610';
  type Json = Record<string, any>;
  const tweet = async (id: string) => ((await (await fetch(`${runtime.url}/api/tweet/${id}`)).json()) as { data: Json }).data;

  it('passes a quoted tweet through with its author, text and photo', async () => {
    const data = await tweet(QUOTE);

    expect(data.quoted_tweet).toMatchObject({
      id_str: '1641086480675225601',
      user: { name: 'sammy', screen_name: 'SamuelSusla', profile_image_url_https: expect.stringMatching(/^https:\/\/pbs\.twimg\.com\/profile_images\//) },
      text: expect.stringContaining('View Flattening'),
      mediaDetails: [{ type: 'photo', media_url_https: 'https://pbs.twimg.com/media/FsZNOgcWAAEQtrd.jpg' }],
    });
  });

  it('passes a link card through with its title, description, domain and images on pbs.twimg.com/card_img', async () => {
    const data = await tweet(CARD);

    expect(data.card).toMatchObject({
      name: 'summary_large_image',
      url: 'https://t.co/fI2B6TT8rL',
      binding_values: {
        title: { string_value: 'Tutorial: Tic-Tac-Toe – React' },
        description: { string_value: 'The library for web and native user interfaces' },
        vanity_url: { string_value: 'react.dev' },
        photo_image_full_size_large: { image_value: { url: expect.stringMatching(/^https:\/\/pbs\.twimg\.com\/card_img\//), width: 800, height: 419 } },
        thumbnail_image_large: { image_value: { url: expect.stringMatching(/^https:\/\/pbs\.twimg\.com\/card_img\//) } },
      },
    });
  });

  it('passes a video through with its type, poster and duration, also on the tweet it quotes', async () => {
    const data = await tweet(VIDEO);

    expect(data.mediaDetails).toMatchObject([
      { type: 'video', media_url_https: expect.stringMatching(/^https:\/\/pbs\.twimg\.com\/ext_tw_video_thumb\//), video_info: { duration_millis: 8833 } },
    ]);
    expect(data.video).toMatchObject({ poster: data.mediaDetails[0].media_url_https, durationMs: 8833 });
    expect(data.quoted_tweet.mediaDetails).toMatchObject([
      { type: 'video', media_url_https: expect.stringMatching(/^https:\/\/pbs\.twimg\.com\/amplify_video_thumb\//) },
    ]);
  });

  it.each([QUOTE, CARD, VIDEO])('relays through the media proxy every image the editor draws for tweet %s', async (id) => {
    // Prepare: the editor's own reading of the payload names the images; the media stand-in has each
    const view = tweetView(await tweet(id));
    const urls = [view.avatarUrl, ...cardImageUrls(view)].filter((url) => url !== undefined);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
    for (const url of urls) media.on(url, { headers: { 'content-type': 'image/jpeg', 'content-length': String(jpeg.length) }, body: jpeg });

    // Act
    const responses = await Promise.all(urls.map((url) => fetch(`${runtime.url}/api/image-proxy?url=${encodeURIComponent(url)}`)));

    // Assess
    expect(urls.length).toBeGreaterThanOrEqual(id === CARD ? 2 : 3);
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(Buffer.from(await response.arrayBuffer())).toEqual(jpeg);
    }
  });
});
