/** The local runtime's HTTP server: each request goes to its row's handler as API Gateway and Lambda would. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { PayloadTooLargeError, ServerStartingError } from '#shared/errors.ts';
import type { HttpHandler } from '#shared/http/handler.ts';
import { routeMatcher } from '#shared/http/match.ts';
import type { LambdaResult } from '#shared/route-types.ts';
import { log, serializeError } from '#shared/log.ts';
import { FALLBACK, ROUTE_LIST } from '#shared/routes.ts';
import { allowStreaming, streamOf } from '#shared/http/reply.ts';
import { requestTarget, toContext, toEvent, writeResult } from '#infra/local/apigw.ts';
import { listenOn } from '#infra/local/ports.ts';
import { type Refuse, answerUnreadable, localRefusals } from '#infra/local/refusals.ts';
import { answerStartingPage } from '#infra/local/starting-page.ts';

const matchRoute = routeMatcher(ROUTE_LIST);

/** Lambda's synchronous request payload limit; API Gateway refuses larger bodies before our code runs. */
export const MAX_REQUEST_BYTES = 6 * 1024 * 1024;

export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  /** Undefined for a streamed body, which is not held back to be observed. */
  body?: Buffer;
}

export interface HttpHandlers {
  routes: Map<string, HttpHandler>;
  fallback: HttpHandler;
}

export interface LocalServer {
  url: string;
  publicBaseUrl: string;
  /** Until then a browser navigation gets a page that reloads itself, and any other request 503 `upstream_unavailable`. */
  serve(handlers: HttpHandlers, how: { streaming: boolean; observe?: (exchange: Exchange) => void }): void;
  stop(): Promise<void>;
}

/** Keeps at most `limit + 1` bytes: enough to know it was over. */
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

function dispatcher(
  handlers: HttpHandlers,
  how: { streaming: boolean; refuse: Refuse; observe?: (exchange: Exchange) => void },
): (req: IncomingMessage, res: ServerResponse) => void {
  const { streaming, refuse, observe } = how;
  return (req, res) => {
    void (async () => {
      const method = (req.method ?? 'GET').toUpperCase();
      let result: LambdaResult;
      try {
        const { bytes: body, tooLarge } = await readBody(req, MAX_REQUEST_BYTES);
        const match = matchRoute(method, requestTarget(req.url).path);
        const row = match.kind === 'route' ? match.route : undefined;
        // A route that takes a body answers an oversized one itself (rate limit, headers), as it
        // would any body over its own limit; in the cloud API Gateway refuses it first.
        if (tooLarge && !row?.body) {
          result = await refuse(req, new PayloadTooLargeError(MAX_REQUEST_BYTES));
          result.headers = { ...result.headers, Connection: 'close' };
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
        // Logged by the refusal's boundary, with its request id.
        result = await refuse(req, error);
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

/** Answers 503 until `serve` is called. */
export async function startServer(options: { host: string; port: number; configuredBaseUrl: string | undefined }): Promise<LocalServer> {
  const { host, port: httpPort, configuredBaseUrl } = options;
  let publicBaseUrl = configuredBaseUrl ?? 'http://127.0.0.1';
  const refuse = localRefusals(() => publicBaseUrl);
  let dispatch: (req: IncomingMessage, res: ServerResponse) => void = (req, res) => {
    if (answerStartingPage(req, res)) return;
    void refuse(req, new ServerStartingError()).then(
      (result) => writeResult(res, result, (req.method ?? 'GET').toUpperCase()),
      () => res.destroy(),
    );
  };
  const server = createServer((req, res) => dispatch(req, res));
  // Node answers what it cannot parse with a bare status line; answer with the envelope instead.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    answerUnreadable(error, socket, refuse).catch(() => socket.destroy());
  });
  await listenOn(
    'PORT',
    httpPort,
    host,
    () =>
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
      dispatch = dispatcher(handlers, { ...how, refuse });
    },
    stop: () =>
      new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      }),
  };
}
