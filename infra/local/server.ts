/**
 * The HTTP face of the local runtime: a server bound before anything else (the public base URL
 * must be known before a handler loads), which then turns each request into an API Gateway
 * payload 2.0 event for the handler of its row, as API Gateway and Lambda would.
 */
import { STATUS_CODES, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { toEnvelope } from '#shared/http/envelope.ts';
import { PayloadTooLargeError, UnreadableRequestError } from '#shared/errors.ts';
import type { HttpHandler } from '#shared/http/handler.ts';
import { routeMatcher } from '#shared/http/match.ts';
import type { LambdaResult } from '#shared/route-types.ts';
import { log, serializeError } from '#shared/log.ts';
import { FALLBACK, ROUTE_LIST } from '#shared/routes.ts';
import { allowStreaming, streamOf } from '#shared/http/reply.ts';
import { requestTarget, toContext, toEvent, writeResult } from '#infra/local/apigw.ts';
import { listenOn } from '#infra/local/ports.ts';

const matchRoute = routeMatcher(ROUTE_LIST);

/** Lambda's synchronous request payload limit; API Gateway refuses larger bodies before our code runs. */
export const MAX_REQUEST_BYTES = 6 * 1024 * 1024;

/** One request and the answer the local server gave it, for observers (the tests' contract check). */
export interface Exchange {
  method: string;
  /** Path of the request, without the query. */
  path: string;
  status: number;
  headers: Record<string, string>;
  /** The body as sent; undefined for a streamed body, which is not held back to be observed. */
  body?: Buffer;
}

/** The handler of every row, by operationId, and the fallback's. */
export interface HttpHandlers {
  routes: Map<string, HttpHandler>;
  fallback: HttpHandler;
}

export interface LocalServer {
  url: string;
  /** The base URL of links in answers: PUBLIC_BASE_URL, or the server's own URL. */
  publicBaseUrl: string;
  /** Starts answering with the handlers; until then every request gets a bare 503. */
  serve(handlers: HttpHandlers, how: { streaming: boolean; observe?: (exchange: Exchange) => void }): void;
  stop(): Promise<void>;
}

/** Reads a request body, keeping at most `limit + 1` bytes: enough to know it was over the limit. */
function readBody(req: IncomingMessage, limit: number): Promise<{ bytes: Buffer; tooLarge: boolean }> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      const room = limit + 1 - size;
      if (room > 0) chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, room));
      size += chunk.length;
    });
    req.on('end', () => resolvePromise({ bytes: Buffer.concat(chunks), tooLarge: size > limit }));
    req.on('error', reject);
  });
}

/**
 * Answers a request Node's HTTP parser refused (headers too large, malformed request line or
 * framing, a request that never finished) with the error envelope, then closes the connection:
 * after a framing error nothing more on it can be trusted.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, publicBaseUrl: () => string): void {
  if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'EPIPE') {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const hint =
    status === 431
      ? 'Send a shorter URL and fewer or shorter headers (at most 16 KB together).'
      : status === 408
        ? 'Send the whole request promptly.'
        : `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}): check the request line, the headers and that Content-Length matches the body.`;
  const envelope = toEnvelope(new UnreadableRequestError(status, hint, error), publicBaseUrl());
  const body = JSON.stringify(envelope.body);
  // The answer to a HEAD carries no body, even when the request could not be read whole.
  const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}

/** Hands one request to the handler of its row (or the fallback) and writes what it returns. */
function dispatcher(
  handlers: HttpHandlers,
  how: { streaming: boolean; publicBaseUrl: string; observe?: (exchange: Exchange) => void },
): (req: IncomingMessage, res: ServerResponse) => void {
  const { streaming, publicBaseUrl, observe } = how;
  return (req, res) => {
    void (async () => {
      const method = (req.method ?? 'GET').toUpperCase();
      let result: LambdaResult;
      try {
        const { bytes: body, tooLarge } = await readBody(req, MAX_REQUEST_BYTES);
        const match = matchRoute(method, requestTarget(req.url).path);
        const row = match.kind === 'route' ? match.route : undefined;
        // Past Lambda's limit a route that takes a body still answers, as it does to any body over
        // its own (smaller) limit: counted by its rate limit and carrying its headers. In the cloud
        // API Gateway refuses such a request before any function runs.
        if (tooLarge && !row?.body) {
          const envelope = toEnvelope(new PayloadTooLargeError(MAX_REQUEST_BYTES), publicBaseUrl);
          result = { statusCode: envelope.status, headers: { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' }, body: JSON.stringify(envelope.body) };
        } else {
          const event = toEvent({
            req,
            body,
            routeKey: row ? `${row.method} ${row.path}` : '$default',
            pathParameters: match.kind === 'route' && Object.keys(match.params).length > 0 ? match.params : undefined,
          });
          const handler = row ? handlers.routes.get(row.operationId)! : handlers.fallback;
          const context = toContext(`easel-${row?.operationId ?? 'fallback'}`, row?.timeout ?? FALLBACK.timeout);
          result = await handler(event, streaming ? allowStreaming(context) : context);
        }
      } catch (error) {
        log.error('local dispatch failed', { error: serializeError(error) });
        const envelope = toEnvelope(error, publicBaseUrl);
        result = { statusCode: envelope.status, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(envelope.body) };
      }
      if (observe) {
        const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));
        const body = streamOf(result) ? undefined : Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
        observe({ method, path: requestTarget(req.url).path, status: result.statusCode ?? 200, headers, body });
      }
      if (!res.destroyed) writeResult(res, result, method);
    })().catch((error: unknown) => {
      // Nothing may leave a request unanswered or end the process: cut the connection instead.
      log.error('local dispatch failed after the answer was made', { error: serializeError(error) });
      res.destroy();
    });
  };
}

/**
 * Binds the HTTP port (a busy one fails with its one line, infra/local/ports.ts). The server
 * answers 503 until `serve` is called.
 */
export async function startServer(options: { host: string; port: number; configuredBaseUrl: string | undefined }): Promise<LocalServer> {
  const { host, port: httpPort, configuredBaseUrl } = options;
  let publicBaseUrl = configuredBaseUrl ?? 'http://127.0.0.1';
  let dispatch: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503).end();
  };
  const server = createServer((req, res) => dispatch(req, res));
  // Node answers what it cannot parse with a bare status line; answer with the envelope instead.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, () => publicBaseUrl));
  await listenOn('PORT', httpPort, host, () =>
    new Promise<void>((resolvePromise, reject) => {
      server.once('error', reject);
      server.listen(httpPort, host, () => resolvePromise());
    }),
  );
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  publicBaseUrl = configuredBaseUrl ?? url;
  return {
    url,
    publicBaseUrl,
    serve: (handlers, how) => {
      dispatch = dispatcher(handlers, { ...how, publicBaseUrl });
    },
    stop: () =>
      new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      }),
  };
}
