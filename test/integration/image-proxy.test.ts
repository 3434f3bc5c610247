import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { startMediaUpstream, type MediaUpstream } from '../support/media-upstream.ts';
import type { StubAnswer } from '../support/upstreams.ts';
import { expectedEnvelope } from '../support/expectations.ts';

const CAP = 256 * 1024;
let upstream: MediaUpstream;
let runtime: TestRuntime;

/** Deterministic bytes that are not all the same, so a reordered or truncated relay shows. */
const bytes = (size: number, seed = 1) => {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed * 7) & 0xff;
  return out;
};
const IMAGE = bytes(50_000);
const VIDEO = bytes(200_000, 2);
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  upstream = await startMediaUpstream();
  Object.assign(process.env, upstream.env, {
    MEDIA_PROXY_MAX_BYTES: String(CAP),
    MEDIA_PROXY_CONNECT_TIMEOUT_MS: '2000',
    MEDIA_PROXY_READ_TIMEOUT_MS: '1000',
  });
  runtime = await startTestRuntime();

  const png = {
    status: 200,
    headers: {
      'content-type': 'image/png',
      'content-length': String(IMAGE.length),
      'cache-control': 'max-age=604800, must-revalidate',
      etag: '"img-1"',
      'last-modified': 'Wed, 01 Apr 2026 10:00:00 GMT',
      'set-cookie': 'tracking=1; Domain=twimg.com',
      server: 'tsa_b',
      'access-control-allow-origin': 'https://x.com',
      'x-upstream-secret': 'internal',
    },
    body: IMAGE,
  };
  upstream.on('https://pbs.twimg.com/media/photo.png', (req) =>
    req.headers['if-none-match'] === '"img-1"' ? { status: 304, headers: { etag: '"img-1"', 'cache-control': 'max-age=604800' } } : png,
  );
  upstream.on('https://video.twimg.com/ext_tw_video/1/vid/clip.mp4', (req): StubAnswer => {
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!range) return { headers: { 'content-type': 'video/mp4', 'content-length': String(VIDEO.length), 'accept-ranges': 'bytes' }, body: VIDEO };
    const [start, end] = [Number(range[1]), Number(range[2])];
    return {
      status: 206,
      headers: {
        'content-type': 'video/mp4',
        'content-length': String(end - start + 1),
        'accept-ranges': 'bytes',
        'content-range': `bytes ${start}-${end}/${VIDEO.length}`,
      },
      body: VIDEO.subarray(start, end + 1),
    };
  });
  upstream.on('https://pbs.twimg.com/media/chunked.jpg', { headers: { 'content-type': 'image/jpeg' }, chunks: [bytes(10_000), bytes(10_000, 3)] });
  upstream.on('https://pbs.twimg.com/moved', { status: 301, headers: { location: 'https://video.twimg.com/ext_tw_video/1/vid/clip.mp4' } });
  upstream.on('https://pbs.twimg.com/relative', { status: 302, headers: { location: '/media/photo.png' } });
  upstream.on('https://pbs.twimg.com/away', { status: 302, headers: { location: 'https://evil.example/cat.png' } });
  upstream.on('https://pbs.twimg.com/downgrade', { status: 302, headers: { location: 'http://pbs.twimg.com/media/photo.png' } });
  for (let hop = 1; hop <= 4; hop++) upstream.on(`https://abs.twimg.com/loop${hop}`, { status: 302, headers: { location: `/loop${hop + 1}` } });
  upstream.on('https://pbs.twimg.com/page.html', { headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<script>alert(document.domain)</script>' });
  upstream.on('https://pbs.twimg.com/vector.svg', {
    headers: { 'content-type': 'image/svg+xml' },
    body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  });
  upstream.on('https://pbs.twimg.com/script.js', { headers: { 'content-type': 'application/javascript' }, body: 'alert(1)' });
  upstream.on('https://pbs.twimg.com/untyped', { headers: {}, body: 'what am I' });
  upstream.on('https://pbs.twimg.com/declared-huge.jpg', {
    headers: { 'content-type': 'image/jpeg', 'content-length': String(CAP + 1) },
    body: bytes(CAP + 1),
  });
  upstream.on('https://pbs.twimg.com/endless.jpg', {
    headers: { 'content-type': 'image/jpeg' },
    chunks: Array.from({ length: 40 }, (_, i) => bytes(16_384, i)),
  });
  upstream.on('https://pbs.twimg.com/liar.jpg', {
    // Declares 1 KB, then keeps sending past the cap: the bytes, not the header, must decide.
    raw: (socket) => {
      socket.end(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 1024\r\n\r\n'), bytes(CAP * 2)]));
    },
  });
  upstream.on('https://pbs.twimg.com/forbidden.jpg', { status: 403, headers: { 'content-type': 'text/html' }, body: '<h1>Forbidden</h1>' });
  upstream.on('https://pbs.twimg.com/gone.jpg', { status: 404, headers: { 'content-type': 'text/plain' }, body: 'gone' });
  upstream.on('https://pbs.twimg.com/broken.jpg', { status: 500, body: 'oops' });
  upstream.on('https://pbs.twimg.com/reset.jpg', { raw: (socket) => socket.destroy() });
  upstream.on('https://pbs.twimg.com/stall.jpg', { delayMs: 5_000, headers: { 'content-type': 'image/jpeg' }, body: 'late' });
});

afterAll(async () => {
  await runtime?.dispose();
  await upstream?.close();
});

beforeEach(() => {
  upstream.server.requests.length = 0;
});

const proxy = (url: string, headers?: Record<string, string>) => fetch(`${runtime.url}/api/image-proxy?url=${encodeURIComponent(url)}`, { headers });

const envelope = (status: number, code: string) => expectedEnvelope(runtime.url, status, code);

async function expectEnvelope(response: Response, status: number, code: string, hint?: RegExp): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.json()).toEqual({ ...envelope(status, code), ...(hint ? { hint: expect.stringMatching(hint) } : {}) });
}

describe('GET /api/image-proxy: relaying', () => {
  it('relays an allowlisted image with only the allowlisted headers and the media security headers', async () => {
    const response = await proxy('https://pbs.twimg.com/media/photo.png');

    expect(response.status).toBe(200);
    expect(sha(Buffer.from(await response.arrayBuffer()))).toBe(sha(IMAGE));
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(IMAGE.length),
      'cache-control': 'max-age=604800, must-revalidate',
      etag: '"img-1"',
      'last-modified': 'Wed, 01 Apr 2026 10:00:00 GMT',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
      'cross-origin-resource-policy': 'cross-origin',
      'access-control-allow-origin': '*',
    });
    for (const name of ['set-cookie', 'server', 'x-upstream-secret']) expect(response.headers.get(name)).toBeNull();
  });

  it('forwards only the allowlisted request headers, with its own User-Agent', async () => {
    await proxy('https://pbs.twimg.com/media/photo.png', {
      accept: 'image/webp,*/*',
      cookie: 'easel.session_token=secret',
      authorization: 'Bearer secret',
      'x-api-key': 'easel_sk_secret',
      referer: 'https://editor.example/doc/1',
      'user-agent': 'caller-agent',
    });

    const [seen] = upstream.server.requests;
    expect(seen?.headers).toEqual({
      host: 'pbs.twimg.com',
      accept: 'image/webp,*/*',
      'accept-encoding': 'identity',
      'user-agent': expect.stringMatching(/^Easel-MediaProxy\/1\.0 /),
      connection: 'keep-alive',
    });
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const response = await proxy('https://pbs.twimg.com/media/photo.png', { 'if-none-match': '"img-1"' });

    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe('"img-1"');
    expect(response.headers.get('content-length')).toBeNull();
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('relays a video range with 206 and Content-Range', async () => {
    const response = await proxy('https://video.twimg.com/ext_tw_video/1/vid/clip.mp4', { range: 'bytes=1000-1999' });

    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 1000-1999/${VIDEO.length}`);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(sha(Buffer.from(await response.arrayBuffer()))).toBe(sha(VIDEO.subarray(1000, 2000)));
  });

  it('streams a whole video larger than one read', async () => {
    const response = await proxy('https://video.twimg.com/ext_tw_video/1/vid/clip.mp4');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(sha(Buffer.from(await response.arrayBuffer()))).toBe(sha(VIDEO));
  });

  it('relays a body sent without Content-Length within the cap, with its length', async () => {
    const response = await proxy('https://pbs.twimg.com/media/chunked.jpg');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('20000');
    expect(sha(Buffer.from(await response.arrayBuffer()))).toBe(sha(Buffer.concat([bytes(10_000), bytes(10_000, 3)])));
  });

  it.each([
    ['to another allowlisted host', 'https://pbs.twimg.com/moved', 'video/mp4'],
    ['to a relative location', 'https://pbs.twimg.com/relative', 'image/png'],
  ])('follows a redirect %s', async (_case, url, type) => {
    const response = await proxy(url);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
  });
});

describe('GET /api/image-proxy: refusals', () => {
  it.each([
    ['another host', 'https://example.com/cat.png'],
    ['a subdomain of a media host', 'https://x.pbs.twimg.com/media/photo.png'],
    ['a look-alike host', 'https://pbs.twimg.com.evil.example/media/photo.png'],
    ['user info', 'https://user:pass@pbs.twimg.com/media/photo.png'],
    ['plain http', 'http://pbs.twimg.com/media/photo.png'],
    ['another port', 'https://pbs.twimg.com:8443/media/photo.png'],
  ])('refuses %s with 403 forbidden_domain without fetching', async (_case, url) => {
    const response = await proxy(url);

    await expectEnvelope(response, 403, 'forbidden_domain');
    expect(upstream.server.requests).toEqual([]);
  });

  it('refuses a missing url with 400 invalid_request', async () => {
    await expectEnvelope(await fetch(`${runtime.url}/api/image-proxy`), 400, 'invalid_request', /url is required/);
  });

  it('refuses a malformed url with 400 invalid_url', async () => {
    await expectEnvelope(await proxy('pbs.twimg.com/media/photo.png'), 400, 'invalid_url');
  });

  it.each([
    ['another host', 'https://pbs.twimg.com/away'],
    ['plain http', 'https://pbs.twimg.com/downgrade'],
  ])('refuses a redirect to %s with 403 forbidden_domain', async (_case, url) => {
    await expectEnvelope(await proxy(url), 403, 'forbidden_domain', /^The media host redirected elsewhere/);
    expect(upstream.server.requests).toHaveLength(1);
  });

  it('refuses more than three redirects with 502 upstream_failed', async () => {
    await expectEnvelope(await proxy('https://abs.twimg.com/loop1'), 502, 'upstream_failed', /more than 3 times/);
    expect(upstream.server.requests).toHaveLength(4);
  });

  it.each([
    ['text/html', 'https://pbs.twimg.com/page.html'],
    ['image/svg+xml', 'https://pbs.twimg.com/vector.svg'],
    ['application/javascript', 'https://pbs.twimg.com/script.js'],
    ['no content type', 'https://pbs.twimg.com/untyped'],
  ])('refuses an upstream %s with 502 upstream_failed', async (_case, url) => {
    await expectEnvelope(await proxy(url), 502, 'upstream_failed', /only image and video types/);
  });

  it.each([
    ['a Content-Length over the cap', 'https://pbs.twimg.com/declared-huge.jpg'],
    ['a stream without Content-Length past the cap', 'https://pbs.twimg.com/endless.jpg'],
  ])('refuses %s with 502 upstream_failed', async (_case, url) => {
    await expectEnvelope(await proxy(url), 502, 'upstream_failed', new RegExp(`limit of ${CAP} bytes`));
  });

  it('refuses a host that sends more than its Content-Length with 502 upstream_failed', async () => {
    await expectEnvelope(await proxy('https://pbs.twimg.com/liar.jpg'), 502, 'upstream_failed', /malformed response/);
  });

  it.each([
    ['403', 'https://pbs.twimg.com/forbidden.jpg'],
    ['404', 'https://pbs.twimg.com/gone.jpg'],
    ['500', 'https://pbs.twimg.com/broken.jpg'],
  ])('answers an upstream %s with 502 upstream_failed', async (status, url) => {
    await expectEnvelope(await proxy(url), 502, 'upstream_failed', new RegExp(`HTTP ${status}`));
  });

  it('answers a connection the host drops with 500 upstream_failed', async () => {
    await expectEnvelope(await proxy('https://pbs.twimg.com/reset.jpg'), 500, 'upstream_failed', /Could not fetch/);
  });

  it('answers a host that does not answer in time with 500 upstream_failed', async () => {
    await expectEnvelope(await proxy('https://pbs.twimg.com/stall.jpg'), 500, 'upstream_failed', /did not answer in time/);
  });
});
