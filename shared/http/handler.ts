import middy from '@middy/core';
import type { MiddlewareObj, Request } from '@middy/core';
import { config } from '#shared/config.ts';
import { toEnvelope } from '#shared/http/envelope.ts';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import { HeaderBag, applyCors, applySecurityHeaders } from '#shared/http/headers.ts';
import { LAMBDA_MAX_BINARY_BYTES, canStream, isReply, reply, withStream } from '#shared/http/reply.ts';
import type { Reply } from '#shared/http/reply.ts';
import { collect } from '#shared/net/collect.ts';
import type { CorsPolicy, LambdaContext, LambdaEvent, LambdaResult } from '#shared/route-types.ts';
import { log, serializeError } from '#shared/log.ts';

export interface HandlerMeta {
  operationId: string;
  /** For logs, e.g. 'GET /api/tweet/{id}'. */
  routeKey: string;
  cors: CorsPolicy | ((event: LambdaEvent) => CorsPolicy);
  /** Status of a plain returned value; 200 when absent. */
  status?: number;
}

// A type alias, not an interface: Middy wants an index-signature-compatible record.
export type BoundaryInternal = {
  startedAt: number;
  /** Added to every response, the error envelope included (e.g. X-RateLimit-*). */
  responseHeaders?: Record<string, string>;
};

export type HttpRequest = Request<LambdaEvent, LambdaResult | Reply | unknown, Error, LambdaContext, BoundaryInternal>;

export type HttpMiddleware = MiddlewareObj<LambdaEvent, unknown, Error, LambdaContext>;

/** Puts these headers on this request's response, success or error. */
export function setResponseHeaders(request: { internal: object }, headers: Record<string, string>): void {
  const internal = request.internal as Partial<BoundaryInternal>;
  internal.responseHeaders = { ...internal.responseHeaders, ...headers };
}

function render(value: unknown, status: number | undefined): Reply {
  return isReply(value) ? value : reply.json(value, status);
}

async function toResult(out: Reply, event: LambdaEvent, context: LambdaContext | undefined, cors: CorsPolicy, requestId: string): Promise<LambdaResult> {
  const headers = new HeaderBag();
  let body = '';
  let isBase64Encoded = false;
  let stream: import('node:stream').Readable | undefined;
  switch (out.body.kind) {
    case 'json':
      headers.set('Content-Type', 'application/json; charset=utf-8');
      body = JSON.stringify(out.body.value);
      break;
    case 'text':
      body = out.body.value;
      break;
    case 'binary':
      body = Buffer.from(out.body.value).toString('base64');
      isBase64Encoded = true;
      break;
    case 'stream':
      if (canStream(context)) {
        stream = out.body.value;
      } else {
        // Lambda behind an HTTP API cannot stream a response.
        body = (await collect(out.body.value, LAMBDA_MAX_BINARY_BYTES, out.body.tooLarge)).toString('base64');
        isBase64Encoded = true;
      }
      break;
    case 'empty':
      break;
  }
  headers.merge(out.headers);
  headers.set('X-Request-Id', requestId);
  applySecurityHeaders(headers, event);
  applyCors(headers, cors, event);
  if (event.requestContext?.http?.method?.toUpperCase() === 'HEAD') {
    // HEAD is GET without the body (RFC 9110 §9.3.2): the headers, and the length GET would send.
    if (!headers.has('Content-Length') && !stream) headers.set('Content-Length', String(Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8')));
    stream?.destroy();
    stream = undefined;
    body = '';
    isBase64Encoded = false;
  }
  const result: LambdaResult = { statusCode: out.status, headers: headers.toObject(), body, isBase64Encoded };
  if (out.cookies.length > 0) result.cookies = out.cookies;
  return stream ? withStream(result, stream) : result;
}

/** The boundary every HTTP handler shares: result or envelope, security and CORS headers, one log line per request. */
function httpBoundary(meta: HandlerMeta): MiddlewareObj<LambdaEvent, unknown, Error, LambdaContext, BoundaryInternal> {
  const corsOf = (event: LambdaEvent) => (typeof meta.cors === 'function' ? meta.cors(event) : meta.cors);
  const requestIdOf = (request: HttpRequest) => request.context?.awsRequestId || request.event.requestContext?.requestId || 'local';

  const finish = async (request: HttpRequest, rendered: Reply, error?: unknown): Promise<LambdaResult> => {
    const requestId = requestIdOf(request);
    // The response's own headers win over the ones a middleware asked for.
    const extra = request.internal.responseHeaders;
    const out = extra ? { ...rendered, headers: { ...extra, ...rendered.headers } } : rendered;
    const result = await toResult(out, request.event, request.context, corsOf(request.event), requestId);
    const fields: Record<string, unknown> = {
      requestId,
      route: meta.routeKey,
      operationId: meta.operationId,
      method: request.event.requestContext?.http?.method,
      path: request.event.rawPath,
      status: result.statusCode,
      latencyMs: Math.round((performance.now() - (request.internal.startedAt ?? performance.now())) * 10) / 10,
    };
    if (error !== undefined && (result.statusCode ?? 500) >= 500) {
      log.error('request failed', { ...fields, error: serializeError(error) });
    } else {
      log.info('request', error instanceof Error ? { ...fields, code: (error as { code?: string }).code } : fields);
    }
    return result;
  };

  return {
    before: (request) => {
      request.internal.startedAt = performance.now();
    },
    after: async (request) => {
      // A stream body that fails while it is buffered throws here, and onError answers with its envelope.
      request.response = await finish(request, render(request.response, meta.status));
    },
    onError: async (request) => {
      const envelope = toEnvelope(request.error, config().publicBaseUrl);
      request.response = await finish(request, reply.json(envelope.body, envelope.status, { headers: envelope.headers }), request.error);
    },
  };
}

export type HttpHandler = (event: LambdaEvent, context: LambdaContext) => Promise<LambdaResult>;

/** Reads the configuration at cold start, so a missing variable fails the container, not a request. */
export function createHttpHandler(
  meta: HandlerMeta,
  middlewares: HttpMiddleware[],
  fn: (event: LambdaEvent, context: LambdaContext, signal: AbortSignal) => Promise<unknown>,
): HttpHandler {
  config();
  let chain = middy<LambdaEvent, unknown, Error, LambdaContext, BoundaryInternal>({
    // Answer with the envelope before Lambda kills the invocation and API Gateway sends a bare 503.
    timeoutEarlyInMillis: 300,
    timeoutEarlyResponse: () => {
      throw new UpstreamUnavailableError('The request took longer than this route allows; retry later.');
    },
  }).use(httpBoundary(meta));
  for (const middleware of middlewares) chain = chain.use(middleware as never);
  const handler = chain.handler((event, context, { signal }) => fn(event, context, signal));
  return handler as unknown as HttpHandler;
}
