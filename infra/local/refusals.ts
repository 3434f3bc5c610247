/**
 * The local server's own answers (a body over the limit, a request Node cannot parse, a failed
 * dispatch, 503 while starting) made as a route's are: through the always-on list and the boundary,
 * with a request id, the security headers, the envelope, a log line and metrics.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { UnreadableRequestError } from '#shared/errors.ts';
import { createHttpHandler } from '#shared/http/handler.ts';
import { HeaderBag } from '#shared/http/headers.ts';
import type { LambdaEvent, LambdaResult } from '#shared/route-types.ts';
import { type RequestLike, toContext, toEvent } from '#infra/local/apigw.ts';

export type Refuse = (req: RequestLike, error: unknown) => Promise<LambdaResult>;

/** `publicBaseUrl` rather than the configuration: the server answers before the handlers' configuration loads. */
export function localRefusals(publicBaseUrl: () => string): Refuse {
  const errors = new WeakMap<LambdaEvent, unknown>();
  const handler = createHttpHandler(
    { operationId: 'localServer', routeKey: '$default', cors: 'public' },
    [],
    async (event) => {
      throw errors.get(event);
    },
    { publicBaseUrl },
  );
  return (req, error) => {
    const event = toEvent({ req, body: Buffer.alloc(0), routeKey: '$default' });
    errors.set(event, error);
    return handler(event, toContext('easel-local-server', 5));
  };
}

const HINTS: Record<400 | 408 | 431, (code: string | undefined) => string> = {
  431: () => 'Send a shorter URL and fewer or shorter headers (at most 16 KB together).',
  408: () => 'Send the whole request promptly.',
  400: (code) => `The request is not valid HTTP/1.1 (${code ?? 'parse error'}): check the request line, the headers and that Content-Length matches the body.`,
};

/** Answers what Node's parser refused, then closes: after a framing error nothing more can be trusted. */
export async function answerUnreadable(error: NodeJS.ErrnoException, socket: Duplex, refuse: Refuse): Promise<void> {
  if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'EPIPE') {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  // The method and path, when the parser got that far: a HEAD's answer carries no body.
  const line = /^([A-Z]{1,16}) (\/[^\s?#]{0,2048})?/.exec((error as { rawPacket?: Buffer }).rawPacket?.toString('latin1', 0, 2100) ?? '');
  const req = { url: line?.[2] ?? '/', method: line?.[1] ?? 'GET', headers: {}, httpVersion: '1.1', socket: socket as Socket };
  const result = await refuse(req, new UnreadableRequestError(status, HINTS[status](error.code), error));
  const body = Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
  const headers = new HeaderBag().merge(result.headers as Record<string, string>).set('Connection', 'close');
  // A HEAD keeps the length its GET would have (http/head.ts).
  headers.setDefault('Content-Length', String(body.length));
  const head = Object.entries(headers.toObject()).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${result.statusCode} ${STATUS_CODES[result.statusCode ?? 500]}\r\n${head.join('')}\r\n`, 'latin1'), body]));
}
