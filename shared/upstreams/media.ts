/** One HTTPS request to a media host, its address checked as the socket connects, so a DNS answer that changes cannot reach an internal one. */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { BlockedTargetError, guardedLookup } from '#shared/net/guard.ts';
import type { TargetPolicy } from '#shared/net/guard.ts';

export interface MediaHop {
  url: URL;
  headers: Record<string, string>;
  signal?: AbortSignal;
}

export interface MediaResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
}

export type MediaFetch = (hop: MediaHop) => Promise<MediaResponse>;

/** Why a hop failed before (or while) its response arrived; the service maps each to a status. */
export class MediaFetchError extends Error {
  readonly reason: 'connect-timeout' | 'read-timeout' | 'protocol' | 'network';
  constructor(reason: MediaFetchError['reason'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MediaFetchError';
    this.reason = reason;
  }
}

export interface MediaFetchSettings {
  connectTimeoutMs: number;
  /** Longest wait for the response headers once connected. */
  readTimeoutMs: number;
  /** TEST ONLY: loopback ports the address check lets through. */
  loopbackPorts: readonly number[];
  /** TEST ONLY: host → port of a server on 127.0.0.1 standing in for that host. */
  testHosts: ReadonlyMap<string, number>;
  /** TEST ONLY: CA trusted for the mapped hosts, and only for them. */
  testCa?: string;
}

function isProtocolError(error: unknown): boolean {
  return typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('HPE_');
}

/** Wraps a socket or parser error in a MediaFetchError, keeping errors that already say why (the address guard's). */
export function toFetchError(error: unknown): Error {
  if (error instanceof MediaFetchError) return error;
  if (error instanceof BlockedTargetError) return error;
  if (isProtocolError(error)) return new MediaFetchError('protocol', 'malformed HTTP response', { cause: error });
  return new MediaFetchError('network', (error as Error)?.message ?? 'request failed', { cause: error });
}

const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

/** Single hops over a keep-alive agent (sockets were checked on connect); a connection the host closed while Lambda was frozen is retried once. */
export function createMediaFetch(settings: MediaFetchSettings): MediaFetch {
  const agent = new Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo' });
  const policy: TargetPolicy = { loopbackPorts: settings.loopbackPorts };

  const fetchHop = (hop: MediaHop, retried: boolean): Promise<MediaResponse> =>
    new Promise((resolve, reject) => {
      const mapped = settings.testHosts.get(hop.url.hostname);
      const port = mapped ?? 443;
      // A mapped host "resolves" to 127.0.0.1, and the guard still has to let that port through.
      const lookup = mapped === undefined ? guardedLookup(port, policy) : guardedLookup(port, policy, async () => [{ address: '127.0.0.1', family: 4 }]);
      const req = request({
        host: hop.url.hostname,
        port,
        method: 'GET',
        path: `${hop.url.pathname}${hop.url.search}`,
        // The URL's own host: a test mapping connects elsewhere but must send what production sends.
        headers: { ...hop.headers, host: hop.url.host },
        agent,
        lookup,
        servername: hop.url.hostname,
        ...(mapped !== undefined && settings.testCa ? { ca: settings.testCa } : {}),
        signal: hop.signal,
      });
      let response: IncomingMessage | undefined;
      let connectTimer: NodeJS.Timeout | undefined;
      let headersTimer: NodeJS.Timeout | undefined;
      const clear = () => {
        clearTimeout(connectTimer);
        clearTimeout(headersTimer);
      };
      const waitForHeaders = () => {
        clearTimeout(connectTimer);
        headersTimer = setTimeout(
          () => req.destroy(new MediaFetchError('read-timeout', `no response headers within ${settings.readTimeoutMs} ms`)),
          settings.readTimeoutMs,
        );
      };
      req.on('socket', (socket) => {
        // A reused keep-alive socket is already connected: only the wait for headers applies.
        if (!socket.connecting) return waitForHeaders();
        connectTimer = setTimeout(
          () => req.destroy(new MediaFetchError('connect-timeout', `no connection within ${settings.connectTimeoutMs} ms`)),
          settings.connectTimeoutMs,
        );
        socket.once('secureConnect', waitForHeaders);
      });
      req.on('response', (res) => {
        response = res;
        clear();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        clear();
        // After the headers, a parser error (extra bytes past Content-Length) must fail the body.
        if (response) response.destroy(toFetchError(error));
        else if (!retried && req.reusedSocket && !hop.signal?.aborted && STALE_CONNECTION.has(error.code ?? '')) resolve(fetchHop(hop, true));
        else reject(toFetchError(error));
      });
      req.end();
    });

  return (hop) => fetchHop(hop, false);
}
