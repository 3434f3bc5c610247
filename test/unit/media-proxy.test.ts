import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ForbiddenDomainError, HttpError, InvalidUrlError, UpstreamFailedError } from '#shared/errors.ts';
import { LAMBDA_MAX_BINARY_BYTES } from '#shared/http/reply.ts';
import { checkMediaUrl, forwardedHeaders, limitBody, mediaContentType, proxyMedia } from '#shared/services/media-proxy.ts';
import type { MediaProxyDeps } from '#shared/services/media-proxy.ts';
import { createMediaFetch } from '#shared/upstreams/media.ts';
import { createMediaCertificate, startTlsStub } from '../support/upstreams.ts';
import type { MediaFetch, MediaHop, MediaResponse } from '#shared/upstreams/media.ts';

describe('checkMediaUrl', () => {
  it.each([
    'https://pbs.twimg.com/media/FspwrnGWYAEvC3n.jpg',
    'https://abs.twimg.com/responsive-web/client-web/icon.png',
    'https://ton.twimg.com/some/path.png',
    'https://video.twimg.com/ext_tw_video/1/pu/vid/1280x720/a.mp4?tag=12',
    'https://PBS.TWIMG.COM/media/upper.jpg',
    'https://pbs.twimg.com:443/media/explicit-default-port.jpg',
  ])('accepts %s', (url) => {
    expect(checkMediaUrl(url).hostname).toMatch(/^(pbs|abs|ton|video)\.twimg\.com$/);
  });

  it('drops the fragment, which is never sent upstream', () => {
    expect(checkMediaUrl('https://pbs.twimg.com/media/a.jpg?name=small#frag').href).toBe('https://pbs.twimg.com/media/a.jpg?name=small');
  });

  it.each([
    ['plain http', 'http://pbs.twimg.com/media/a.jpg'],
    ['another host', 'https://example.com/a.jpg'],
    ['a subdomain', 'https://a.pbs.twimg.com/media/a.jpg'],
    ['the parent domain', 'https://twimg.com/media/a.jpg'],
    ['a look-alike suffix', 'https://pbs.twimg.com.evil.example/a.jpg'],
    ['a look-alike prefix', 'https://evilpbs.twimg.com/a.jpg'],
    ['a trailing dot', 'https://pbs.twimg.com./a.jpg'],
    ['a user name', 'https://user@pbs.twimg.com/a.jpg'],
    ['user and password', 'https://user:secret@pbs.twimg.com/a.jpg'],
    ['another port', 'https://pbs.twimg.com:8443/a.jpg'],
    ['port 80 on https', 'https://pbs.twimg.com:80/a.jpg'],
    ['an IP address', 'https://104.244.43.131/a.jpg'],
    ['loopback', 'https://127.0.0.1/a.jpg'],
    ['a data URL', 'data:image/svg+xml,<svg/>'],
    ['a javascript URL', 'javascript:alert(1)'],
    ['ftp', 'ftp://pbs.twimg.com/a.jpg'],
  ])('refuses %s with 403 forbidden_domain', (_case, url) => {
    expect(() => checkMediaUrl(url)).toThrow(ForbiddenDomainError);
  });

  it.each(['not a url', '/media/a.jpg', '//pbs.twimg.com/a.jpg'])('refuses %j with 400 invalid_url', (url) => {
    expect(() => checkMediaUrl(url)).toThrow(InvalidUrlError);
  });
});

describe('mediaContentType', () => {
  it.each([
    ['image/jpeg', 'image/jpeg'],
    ['image/png; charset=binary', 'image/png'],
    ['IMAGE/WEBP', 'image/webp'],
    ['video/mp4', 'video/mp4'],
    ['image/avif', 'image/avif'],
  ])('relays %j as %s', (header, type) => {
    expect(mediaContentType(header)).toBe(type);
  });

  it.each([
    'image/svg+xml',
    'image/svg+xml; charset=utf-8',
    'image/svg',
    'image/x-foo+xml',
    'text/html',
    'text/html; charset=utf-8',
    'application/javascript',
    'application/json',
    'application/octet-stream',
    'application/x-mpegURL',
    'image/',
    'image/png, text/html',
    '',
    undefined,
  ])('refuses %j', (header) => {
    expect(mediaContentType(header)).toBeUndefined();
  });
});

describe('forwardedHeaders', () => {
  it('passes only the allowlist upstream, with our own User-Agent and no compression', () => {
    const headers = forwardedHeaders(
      {
        accept: 'image/avif,image/webp,*/*',
        range: 'bytes=0-1023',
        'if-none-match': '"abc"',
        'if-modified-since': 'Wed, 21 Oct 2026 07:28:00 GMT',
        cookie: 'easel.session_token=secret',
        authorization: 'Bearer secret',
        'x-api-key': 'easel_sk_secret',
        referer: 'https://editor.example/private',
        origin: 'https://editor.example',
        'user-agent': 'Mozilla/5.0 caller',
        'x-forwarded-for': '203.0.113.9',
      },
      'Easel-MediaProxy/1.0',
    );

    expect(headers).toEqual({
      'user-agent': 'Easel-MediaProxy/1.0',
      'accept-encoding': 'identity',
      accept: 'image/avif,image/webp,*/*',
      range: 'bytes=0-1023',
      'if-none-match': '"abc"',
      'if-modified-since': 'Wed, 21 Oct 2026 07:28:00 GMT',
    });
  });

  it.each(['items=0-10', 'bytes=abc', `bytes=0-${'1'.repeat(200)}`])('drops a Range of %j', (range) => {
    expect(forwardedHeaders({ range }, 'ua').range).toBeUndefined();
  });
});

/** A response as the fetcher gives it: a readable body standing in for the IncomingMessage. */
function answer(status: number, headers: Record<string, string>, body: Buffer | string = ''): MediaResponse {
  const stream = Readable.from([Buffer.from(body)]) as unknown as IncomingMessage;
  return { status, headers, body: stream };
}

function deps(fetch: MediaFetch, maxBytes = 1024): MediaProxyDeps {
  return { fetch, settings: { maxBytes, readTimeoutMs: 1_000 }, userAgent: 'Easel-MediaProxy/test', maxResponseBytes: LAMBDA_MAX_BINARY_BYTES };
}

const request = (url: string) => ({ url, headers: {}, buffered: false });

async function failureOf(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('proxyMedia', () => {
  it('follows up to three redirects on the allowlist, resolving relative locations', async () => {
    const seen: string[] = [];
    const hops: Record<string, MediaResponse> = {
      'https://pbs.twimg.com/a': answer(302, { location: '/b' }),
      'https://pbs.twimg.com/b': answer(301, { location: 'https://video.twimg.com/c' }),
      'https://video.twimg.com/c': answer(307, { location: 'https://abs.twimg.com/d' }),
      'https://abs.twimg.com/d': answer(200, { 'content-type': 'image/png', 'content-length': '3' }, 'PNG'),
    };
    const fetch: MediaFetch = async (hop: MediaHop) => {
      seen.push(hop.url.href);
      return hops[hop.url.href]!;
    };

    const media = await proxyMedia(deps(fetch), request('https://pbs.twimg.com/a'));

    expect(seen).toEqual(['https://pbs.twimg.com/a', 'https://pbs.twimg.com/b', 'https://video.twimg.com/c', 'https://abs.twimg.com/d']);
    expect(media.status).toBe(200);
    expect(Buffer.concat(await media.body!.toArray()).toString()).toBe('PNG');
  });

  it('answers a fourth redirect with 502 upstream_failed', async () => {
    let hop = 0;
    const fetch: MediaFetch = async () => answer(302, { location: `/hop${++hop}` });

    const error = await failureOf(proxyMedia(deps(fetch), request('https://pbs.twimg.com/a')));

    expect(error).toMatchObject({ status: 502, code: 'upstream_failed', hint: expect.stringContaining('more than 3 times') });
    expect(hop).toBe(4);
  });

  it.each([
    ['another host', 'https://evil.example/a.png'],
    ['plain http', 'http://pbs.twimg.com/a.png'],
    ['a subdomain', 'https://x.video.twimg.com/a.mp4'],
    ['credentials', 'https://u:p@pbs.twimg.com/a.png'],
  ])('answers a redirect to %s with 403 forbidden_domain, without following it', async (_case, location) => {
    const seen: string[] = [];
    const fetch: MediaFetch = async (hop) => {
      seen.push(hop.url.href);
      return answer(302, { location });
    };

    const error = await failureOf(proxyMedia(deps(fetch), request('https://pbs.twimg.com/a')));

    expect(error).toBeInstanceOf(ForbiddenDomainError);
    expect(error.hint).toMatch(/^The media host redirected elsewhere/);
    expect(seen).toEqual(['https://pbs.twimg.com/a']);
  });

  it('answers a redirect to a malformed Location with 502 upstream_failed', async () => {
    const error = await failureOf(
      proxyMedia(
        deps(async () => answer(302, { location: 'https://[pbs.twimg.com/b' })),
        request('https://pbs.twimg.com/a'),
      ),
    );

    expect(error).toMatchObject({ status: 502, code: 'upstream_failed', hint: 'The media host redirected to a malformed URL.' });
  });

  it('answers a redirect without Location with 502', async () => {
    const error = await failureOf(
      proxyMedia(
        deps(async () => answer(301, {})),
        request('https://pbs.twimg.com/a'),
      ),
    );

    expect(error).toMatchObject({ status: 502, code: 'upstream_failed' });
  });

  it('refuses a host that resolves to a loopback address at connect time with 403', async () => {
    // Prepare: the mapping makes pbs.twimg.com "resolve" to 127.0.0.1, but no loopback port is opted in.
    const fetch = createMediaFetch({ connectTimeoutMs: 1_000, readTimeoutMs: 1_000, loopbackPorts: [], testHosts: new Map([['pbs.twimg.com', 9]]) });

    const error = await failureOf(proxyMedia(deps(fetch), request('https://pbs.twimg.com/media/a.jpg')));

    expect(error).toBeInstanceOf(ForbiddenDomainError);
    expect(error.hint).toMatch(/resolved to a loopback address/);
  });

  it('answers a host that accepts TCP but never completes TLS with 500 after the connect time-out', async () => {
    // Prepare: a listener that takes the connection and says nothing, so the handshake never ends.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const fetch = createMediaFetch({ connectTimeoutMs: 200, readTimeoutMs: 5_000, loopbackPorts: [port], testHosts: new Map([['pbs.twimg.com', port]]) });

    try {
      const error = await failureOf(proxyMedia(deps(fetch), request('https://pbs.twimg.com/media/a.jpg')));

      expect(error).toMatchObject({ status: 500, code: 'upstream_failed', hint: expect.stringContaining('no connection within 200 ms') });
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('sends a GET again on a new connection when the kept-alive one was dropped by the host, once', async () => {
    // Prepare: a media host that answers the first request on a connection and closes the
    // connection when another request comes on it, as a host that dropped it while a frozen Lambda
    // could not hear.
    const certificate = createMediaCertificate();
    const served = new WeakMap<object, number>();
    let closeEveryConnection = false;
    const host = await startTlsStub(certificate, (req) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      if (count > 1 || closeEveryConnection) return { raw: (socket) => socket.destroy() };
      return { headers: { 'content-type': 'image/png', 'content-length': '4' }, body: Buffer.from('png!') };
    });
    const fetch = createMediaFetch({
      connectTimeoutMs: 1_000,
      readTimeoutMs: 1_000,
      loopbackPorts: [host.port],
      testHosts: new Map([['pbs.twimg.com', host.port]]),
      testCa: readFileSync(certificate.certFile, 'utf8'),
    });
    const get = async () => {
      const response = await fetch({ url: new URL('https://pbs.twimg.com/media/a.png'), headers: {} });
      return { status: response.status, body: Buffer.concat(await response.body.toArray()).toString() };
    };

    try {
      // Act
      const first = await get();
      const second = await get();
      closeEveryConnection = true;
      await new Promise((resolve) => setTimeout(resolve, 10));
      const third = await get().then(
        () => expect.unreachable('resolved'),
        (error: unknown) => error,
      );

      // Assess: the second went out on the first's connection, was dropped, and went again on a new one.
      expect(first).toEqual({ status: 200, body: 'png!' });
      expect(second).toEqual({ status: 200, body: 'png!' });
      expect(host.requests).toHaveLength(5);
      // A new connection dropped the same way is not tried again: one reused, one new, then the failure.
      expect(third).toMatchObject({ name: 'MediaFetchError', reason: 'network' });
    } finally {
      await host.close();
      certificate.dispose();
    }
  });

  it('answers a declared length over the cap with 502 before reading the body', async () => {
    const fetch: MediaFetch = async () => answer(200, { 'content-type': 'image/png', 'content-length': '2048' }, Buffer.alloc(2048));

    const error = await failureOf(proxyMedia(deps(fetch, 1024), request('https://pbs.twimg.com/a')));

    expect(error).toMatchObject({ status: 502, hint: expect.stringContaining("proxy's limit of 1024 bytes") });
  });

  it('caps a buffered (Lambda) response at the 4.5 MB payload limit and says so', async () => {
    const fetch: MediaFetch = async () => answer(200, { 'content-type': 'video/mp4', 'content-length': '5000000' });

    const error = await failureOf(proxyMedia(deps(fetch, 20_000_000), { ...request('https://video.twimg.com/v.mp4'), buffered: true }));

    expect(error).toMatchObject({
      status: 502,
      hint: expect.stringContaining("4500000 bytes, the most a response of this deployment can carry (Lambda's 6 MB payload limit"),
    });
  });
});

describe('limitBody', () => {
  const options = { idleMs: 1_000, host: 'pbs.twimg.com', tooLarge: () => new UpstreamFailedError({ status: 502, hint: 'too large' }) };

  it('fails once the streamed bytes pass the cap, whatever was declared', async () => {
    const source = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]) as unknown as IncomingMessage;

    const error = await failureOf(limitBody(source, { ...options, limit: 1000 }).toArray());

    expect(error).toMatchObject({ status: 502, hint: 'too large' });
  });

  it('fails with 502 when the host sends fewer bytes than it declared', async () => {
    const source = Readable.from([Buffer.alloc(10)]) as unknown as IncomingMessage;

    const error = await failureOf(limitBody(source, { ...options, limit: 1000, declared: 20 }).toArray());

    expect(error).toMatchObject({ status: 502, code: 'upstream_failed', hint: expect.stringContaining('malformed') });
  });

  it('fails with 500 when the host stops sending', async () => {
    const source = new PassThrough() as unknown as IncomingMessage;

    const error = await failureOf(limitBody(source, { ...options, idleMs: 50, limit: 1000 }).toArray());

    expect(error).toMatchObject({ status: 500, code: 'upstream_failed', hint: expect.stringContaining('did not answer in time') });
  });

  it('does not time the host out while the client is slow to read', async () => {
    // Prepare: more than one buffer's worth arrives at once, then the client pauses past the idle time-out
    const source = new PassThrough();
    const body = limitBody(source as unknown as IncomingMessage, { ...options, idleMs: 50, limit: 1024 * 1024 });
    source.write(Buffer.alloc(512 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 150));

    // Act
    source.end();
    const chunks = await body.toArray();

    // Assess
    expect(Buffer.concat(chunks).length).toBe(512 * 1024);
  });

  it('closes the upstream when the client goes away', async () => {
    const source = new PassThrough();
    const body = limitBody(source as unknown as IncomingMessage, { ...options, limit: 1000 });

    body.destroy();

    expect(source.destroyed).toBe(true);
  });
});
