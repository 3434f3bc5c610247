import middy from '@middy/core';
import type { MiddlewareObj, Request } from '@middy/core';
import { config } from '#shared/config.ts';
import { toEnvelope } from '#shared/http/envelope.ts';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import { ALWAYS_ON } from '#shared/http/always-on.ts';
import { HeaderBag } from '#shared/http/headers.ts';
import type { HandlerMeta, HttpMiddleware } from '#shared/http/middleware-types.ts';
import { requestIdOf } from '#shared/http/request-id.ts';
import { LAMBDA_MAX_BINARY_BYTES, canStream, isReply, reply, withStream } from '#shared/http/reply.ts';
import type { Reply } from '#shared/http/reply.ts';
import { collect } from '#shared/net/collect.ts';
import type { LambdaContext, LambdaEvent, LambdaResult } from '#shared/route-types.ts';
import { log, serializeError, withLogContext } from '#shared/log.ts';

export type { HandlerMeta, HttpMiddleware } from '#shared/http/middleware-types.ts';

// A type alias, not an interface: Middy wants an index-signature-compatible record.
export type BoundaryInternal = {
  startedAt: number;
  /** Added to every response, the error envelope included (e.g. X-RateLimit-*). */
  responseHeaders?: Record<string, string>;
};

export type HttpRequest = Request<LambdaEvent, LambdaResult | Reply | unknown, Error, LambdaContext, BoundaryInternal>;

/** Puts these headers on this request's response, success or error. */
export function setResponseHeaders(request: { internal: object }, headers: Record<string, string>): void {
  const internal = request.internal as Partial<BoundaryInternal>;
  internal.responseHeaders = { ...internal.responseHeaders, ...headers };
}

function render(value: unknown, status: number | undefined): Reply {
  return isReply(value) ? value : reply.json(value, status);
}

async function toResult(out: Reply, context: LambdaContext | undefined): Promise<LambdaResult> {
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
  const result: LambdaResult = { statusCode: out.status, headers: headers.toObject(), body, isBase64Encoded };
  if (out.cookies.length > 0) result.cookies = out.cookies;
  return stream ? withStream(result, stream) : result;
}

/** The boundary inside the always-on list: the result or the envelope, rendered, and one log line per request. */
function httpBoundary(meta: HandlerMeta): MiddlewareObj<LambdaEvent, unknown, Error, LambdaContext, BoundaryInternal> {
  const finish = async (request: HttpRequest, rendered: Reply, error?: unknown): Promise<LambdaResult> => {
    // The response's own headers win over the ones a middleware asked for.
    const extra = request.internal.responseHeaders;
    const out = extra ? { ...rendered, headers: { ...extra, ...rendered.headers } } : rendered;
    const result = await toResult(out, request.context);
    const fields: Record<string, unknown> = {
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

/** Fields of every log line of one invocation; the trace id is set by Lambda per invocation when tracing is on. */
function invocationFields(event: LambdaEvent, context: LambdaContext | undefined, coldStart: boolean): Record<string, unknown> {
  const fields: Record<string, unknown> = { requestId: requestIdOf(event, context), coldStart };
  const version = context?.functionVersion ?? process.env.AWS_LAMBDA_FUNCTION_VERSION;
  if (version) fields.functionVersion = version;
  const trace = /Root=([^;]+)/.exec(process.env._X_AMZN_TRACE_ID ?? '')?.[1];
  if (trace) fields.traceId = trace;
  return fields;
}

/**
 * The always-on middleware (always-on.ts), the boundary, then the route's own. Reads the
 * configuration at cold start, so a missing variable fails the container, not a request.
 */
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
  });
  for (const middleware of [...ALWAYS_ON.map((make) => make(meta)), httpBoundary(meta), ...middlewares]) chain = chain.use(middleware as never);
  const handler = chain.handler((event, context, { signal }) => fn(event, context, signal)) as unknown as HttpHandler;
  let coldStart = true;
  return (event, context) => {
    const fields = invocationFields(event, context, coldStart);
    coldStart = false;
    return withLogContext(fields, () => handler(event, context));
  };
}
