/** Relays media from our origin so the canvas stays untainted, after go-camo: hops checked, public addresses, media types, capped size. */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { MediaProxySettings } from '#shared/config.ts';
import { ForbiddenDomainError, HttpError, InvalidUrlError, UpstreamFailedError } from '#shared/errors.ts';
import { collect } from '#shared/net/collect.ts';
import { BlockedTargetError } from '#shared/net/guard.ts';
import { MEDIA_HOSTS, isMediaHost } from '#shared/net/media-hosts.ts';
import { mediaTypeOf } from '#shared/net/media-type.ts';
import { MediaFetchError, toFetchError } from '#shared/upstreams/media.ts';
import type { MediaFetch } from '#shared/upstreams/media.ts';

/** Redirects followed per request, each target re-checked against the allowlist. */
export const MAX_REDIRECTS = 3;

/** Request headers passed upstream, with the longest value accepted; nothing else (no cookies, no credentials). */
const FORWARDED_REQUEST_HEADERS: Record<string, { max: number; pattern?: RegExp }> = {
  accept: { max: 512 },
  range: { max: 128, pattern: /^bytes=\d*-\d*(\s*,\s*\d*-\d*)*$/ },
  'if-none-match': { max: 512 },
  'if-modified-since': { max: 64 },
};

/** Response headers passed back; everything else the media host sends (cookies, server, CORS) is dropped. */
const RETURNED_RESPONSE_HEADERS = ['content-length', 'cache-control', 'etag', 'last-modified', 'accept-ranges'] as const;

/** go-camo's set on every relayed response: media runs and loads nothing and is not sniffed; CORP lets a cross-origin-isolated editor embed it. */
export const MEDIA_SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'cross-origin',
} as const;

/** Used when the media host sends no Cache-Control: media URLs on these hosts are immutable. */
const DEFAULT_CACHE_CONTROL = 'public, max-age=86400';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface ProxyRequest {
  /** The `url` query parameter, not yet trusted. */
  url: string;
  /** The caller's request headers (lowercase names); only the allowlist is read. */
  headers: Record<string, string | undefined>;
  /** True where the response is buffered (Lambda): the cap is then at most the deps' maxResponseBytes. */
  buffered: boolean;
  signal?: AbortSignal;
}

export interface ProxiedMedia {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  body?: Readable;
}

export interface MediaProxyDeps {
  fetch: MediaFetch;
  settings: Pick<MediaProxySettings, 'maxBytes' | 'readTimeoutMs'>;
  /** Our User-Agent towards the media hosts; the caller's is never forwarded. */
  userAgent: string;
  /** The most bytes a buffered response can carry: the platform's cap, which the wiring supplies. */
  maxResponseBytes: number;
}

function forbidden(url: string, why: string): ForbiddenDomainError {
  return new ForbiddenDomainError(
    `${why} Only https URLs on ${MEDIA_HOSTS.join(', ')} (default port, no user:password@) are proxied; got ${url.slice(0, 200)}.`,
  );
}

/** The media host failed the file the caller named: its failure, not the service's (docs/deploy.md, "Alarms"). */
const hostFailed = (options: { status: 500 | 502; hint: string; cause?: unknown }) => new UpstreamFailedError({ ...options, origin: 'target' });

/** https on an allowlisted host, default port, no credentials, no fragment; 400 unparseable (502 for a redirect's Location), else 403. */
export function checkMediaUrl(raw: string, redirectedFrom?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, redirectedFrom);
  } catch {
    if (redirectedFrom) throw hostFailed({ status: 502, hint: 'The media host redirected to a malformed URL.' });
    throw new InvalidUrlError('Invalid URL in query parameter url', 'url must be an absolute https:// URL on one of the media hosts; URL-encode it.');
  }
  const [prefix, shown] = redirectedFrom ? ['The media host redirected elsewhere: ', url.href] : ['', raw];
  if (url.protocol !== 'https:') throw forbidden(shown, `${prefix}only https is proxied.`);
  if (url.username !== '' || url.password !== '') throw forbidden(shown, `${prefix}URLs with credentials are refused.`);
  if (url.port !== '') throw forbidden(shown, `${prefix}only the default https port is proxied.`);
  if (!isMediaHost(url.hostname)) throw forbidden(shown, `${prefix}${url.hostname} is not an allowlisted media host.`);
  url.hash = '';
  return url;
}

/** The allowlisted request headers, plus our own User-Agent and no content coding (media does not compress). */
export function forwardedHeaders(headers: Record<string, string | undefined>, userAgent: string): Record<string, string> {
  const out: Record<string, string> = { 'user-agent': userAgent, 'accept-encoding': 'identity' };
  for (const [name, rule] of Object.entries(FORWARDED_REQUEST_HEADERS)) {
    const value = headers[name]?.trim();
    if (!value || value.length > rule.max || (rule.pattern && !rule.pattern.test(value))) continue;
    out[name] = value;
  }
  return out;
}

/** image/* or video/* only; never SVG or other XML, which could run script from our origin. */
export function mediaContentType(header: string | undefined): string | undefined {
  const essence = mediaTypeOf(header);
  if (!/^(image|video)\/[a-z0-9][a-z0-9.+-]*$/.test(essence)) return undefined;
  if (essence.includes('svg') || essence.endsWith('+xml') || essence.endsWith('/xml')) return undefined;
  return essence;
}

function tooLarge(limit: number, buffered: boolean): UpstreamFailedError {
  const where = buffered
    ? `${limit} bytes, the most a response of this deployment can carry (Lambda's 6 MB payload limit, base64-encoded)`
    : `the proxy's limit of ${limit} bytes`;
  return hostFailed({
    status: 502,
    hint: `The media file is larger than ${where}. Request a smaller variant (for pbs.twimg.com images, name=small or name=medium), or fetch video in parts with a Range header.`,
  });
}

function failure(error: unknown, host: string): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof BlockedTargetError) {
    return new ForbiddenDomainError(`${host} resolved to a ${error.reason} address; the proxy only connects to public addresses.`);
  }
  if (error instanceof MediaFetchError && error.reason === 'protocol') {
    return hostFailed({ status: 502, hint: `${host} sent a malformed response; retry later.`, cause: error });
  }
  if (error instanceof MediaFetchError && (error.reason === 'connect-timeout' || error.reason === 'read-timeout')) {
    return hostFailed({ status: 500, hint: `${host} did not answer in time (${error.message}); retry later.`, cause: error });
  }
  return hostFailed({ status: 500, hint: `Could not fetch from ${host}; retry later.`, cause: error });
}

/** The body counted as it streams: 502 past `limit` or its Content-Length, 500 after `idleMs` without bytes while the client reads. */
export function limitBody(
  source: IncomingMessage,
  options: { limit: number; declared?: number; idleMs: number; host: string; tooLarge: () => HttpError },
): Readable {
  let count = 0;
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const body = new Readable({
    // Room for a few TLS reads, so a consumer can take them in one write.
    highWaterMark: 256 * 1024,
    read: () => {
      if (ended) return;
      arm();
      source.resume();
    },
    destroy: (error, callback) => {
      disarm();
      if (!ended) source.destroy();
      callback(error);
    },
  });
  const fail = (error: HttpError) => body.destroy(error);
  // refresh() reschedules without allocating but cannot revive a cleared timer: disarm() forgets it.
  const arm = () => {
    if (timer) timer.refresh();
    else timer = setTimeout(() => fail(failure(new MediaFetchError('read-timeout', `no bytes for ${options.idleMs} ms`), options.host)), options.idleMs);
  };
  const disarm = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  source.on('data', (chunk: Buffer) => {
    count += chunk.length;
    if (count > options.limit) return fail(options.tooLarge());
    if (options.declared !== undefined && count > options.declared) {
      return fail(failure(new MediaFetchError('protocol', 'more bytes than Content-Length'), options.host));
    }
    arm();
    if (body.push(chunk)) return;
    // The client is behind: the host is not waited for until the client reads again.
    source.pause();
    disarm();
  });
  source.on('end', () => {
    ended = true;
    disarm();
    if (options.declared !== undefined && count !== options.declared) {
      return fail(failure(new MediaFetchError('protocol', `${count} of ${options.declared} declared bytes`), options.host));
    }
    body.push(null);
  });
  source.on('error', (error) => fail(failure(toFetchError(error), options.host)));
  source.on('close', () => {
    // A connection that closes before the body ended is a network failure, not a short file.
    if (!ended && !body.destroyed) fail(failure(new MediaFetchError('network', 'connection closed mid-body'), options.host));
  });
  // A parser error in the headers' packet may have destroyed the source before anyone listened.
  if (source.errored) fail(failure(toFetchError(source.errored), options.host));
  else if (source.destroyed && !source.readableEnded) fail(failure(new MediaFetchError('network', 'connection closed mid-body'), options.host));
  else arm();
  return body;
}

/** Waits for the first bytes before committing, so a host that fails at once gets an envelope, not a cut 200. */
async function firstBytes(body: Readable): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: unknown) => {
      body.off('readable', onReady).off('end', onReady).off('error', settle);
      if (error) reject(error);
      else resolve();
    };
    const onReady = () => settle();
    body.once('readable', onReady).once('end', onReady).once('error', settle);
  });
  // Errors raised while parsing the same read as those bytes are emitted right after them.
  await new Promise((resolve) => setImmediate(resolve));
  if (body.errored) throw body.errored;
}

function responseHeaders(upstream: IncomingMessage['headers'], contentType: string | undefined, status: number): Record<string, string> {
  const out: Record<string, string> = { ...MEDIA_SECURITY_HEADERS };
  if (contentType) out['Content-Type'] = contentType;
  for (const name of RETURNED_RESPONSE_HEADERS) {
    const value = upstream[name];
    if (typeof value === 'string' && value.length <= 512) out[name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())] = value;
  }
  if (status === 206 && typeof upstream['content-range'] === 'string') out['Content-Range'] = upstream['content-range'];
  out['Cache-Control'] ??= DEFAULT_CACHE_CONTROL;
  return out;
}

/** 400 malformed URL; 403 off the allowlist or not public; 502 when the host misbehaves (status, redirects, type, size); 500 unreachable or slow. */
export async function proxyMedia(deps: MediaProxyDeps, request: ProxyRequest): Promise<ProxiedMedia> {
  const limit = request.buffered ? Math.min(deps.settings.maxBytes, deps.maxResponseBytes) : deps.settings.maxBytes;
  const overLimit = () => tooLarge(limit, request.buffered && limit === deps.maxResponseBytes);
  const headers = forwardedHeaders(request.headers, deps.userAgent);
  let url = checkMediaUrl(request.url);

  for (let redirects = 0; ; redirects++) {
    let response;
    try {
      response = await deps.fetch({ url, headers, signal: request.signal });
    } catch (error) {
      throw failure(error, url.hostname);
    }
    const { status } = response;
    const drop = () => response.body.destroy();

    if (REDIRECT_STATUSES.has(status)) {
      drop();
      const location = response.headers.location;
      if (!location) throw hostFailed({ status: 502, hint: `${url.hostname} answered ${status} without a Location.` });
      if (redirects >= MAX_REDIRECTS) {
        throw hostFailed({ status: 502, hint: `${url.hostname} redirected more than ${MAX_REDIRECTS} times.` });
      }
      url = checkMediaUrl(location, url);
      continue;
    }
    if (status === 304) {
      drop();
      return { status, headers: responseHeaders(response.headers, undefined, status) };
    }
    if (status !== 200 && status !== 206) {
      drop();
      throw hostFailed({ status: 502, hint: `${url.hostname} refused the file (HTTP ${status}); check that the URL still exists.` });
    }
    const contentType = mediaContentType(response.headers['content-type']);
    if (!contentType) {
      drop();
      throw hostFailed({
        status: 502,
        hint: `${url.hostname} sent ${JSON.stringify(response.headers['content-type'] ?? 'no content type')}; only image and video types (never SVG) are relayed.`,
      });
    }
    const length = response.headers['content-length'];
    const declared = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
    if (declared !== undefined && declared > limit) {
      drop();
      throw overLimit();
    }
    const out = responseHeaders(response.headers, contentType, status);
    let body = limitBody(response.body, { limit, declared, idleMs: deps.settings.readTimeoutMs, host: url.hostname, tooLarge: overLimit });
    if (declared === undefined) {
      // No length to check up front: read it all (capped) so an oversize body still gets an envelope instead of a cut connection.
      const bytes = await collect(body, limit, overLimit);
      out['Content-Length'] = String(bytes.length);
      body = Readable.from([bytes]);
    } else {
      await firstBytes(body);
    }
    return { status, headers: out, body };
  }
}

export interface MediaProxy {
  proxy(request: ProxyRequest): Promise<ProxiedMedia>;
  /** The error a buffered copy answers with past the Lambda response limit. */
  tooLarge(limit: number): Error;
}

export function createMediaProxy(deps: MediaProxyDeps): MediaProxy {
  return { proxy: (request) => proxyMedia(deps, request), tooLarge: (limit) => tooLarge(limit, true) };
}
