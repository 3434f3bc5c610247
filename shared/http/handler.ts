import middy from '@middy/core';
import type { MiddlewareObj, Request } from '@middy/core';
import { config } from '#shared/config.ts';
import { toEnvelope } from '#shared/http/envelope.ts';
import { DeadlineExceededError, HttpError } from '#shared/errors.ts';
import { ALWAYS_ON } from '#shared/http/always-on.ts';
import { deadlineOf, startDeadline, withinDeadline } from '#shared/http/deadline.ts';
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
        const collected = collect(out.body.value, LAMBDA_MAX_BINARY_BYTES, out.body.tooLarge);
        body = (await (context ? deadlineOf({ context }).race(collected) : collected)).toString('base64');
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

/** Why a request was refused: its error's cause, which never holds a secret, cut short as it may quote the request. */
function reasonOf(error: Error): string | undefined {
  const { cause } = error;
  return (typeof cause === 'string' ? cause : cause instanceof Error ? cause.message : undefined)?.slice(0, 300);
}

/** The boundary inside the always-on list: the result or the envelope, rendered, and one log line per request. */
function httpBoundary(meta: HandlerMeta, publicBaseUrl: () => string): MiddlewareObj<LambdaEvent, unknown, Error, LambdaContext, BoundaryInternal> {
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
      // Only the service's own faults are errors; a target's or an upstream's failure is the caller's to retry.
      const origin = error instanceof HttpError ? error.origin : 'service';
      (origin === 'service' ? log.error : log.warn)('request failed', { ...fields, origin, error: serializeError(error) });
    } else {
      log.info('request', error instanceof Error ? { ...fields, code: (error as { code?: string }).code, reason: reasonOf(error) } : fields);
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
      const envelope = toEnvelope(request.error, publicBaseUrl());
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
 * The always-on middleware, the boundary, then the route's own, within the invocation's deadline. Reads the configuration at
 * cold start, so a missing variable fails the container; `publicBaseUrl` serves answers made before it loads (the local server's).
 */
export function createHttpHandler(
  meta: HandlerMeta,
  middlewares: HttpMiddleware[],
  fn: (event: LambdaEvent, context: LambdaContext, signal: AbortSignal) => Promise<unknown>,
  options: { publicBaseUrl?: () => string } = {},
): HttpHandler {
  if (!options.publicBaseUrl) config();
  const publicBaseUrl = options.publicBaseUrl ?? (() => config().publicBaseUrl);
  const exceeded = () => new DeadlineExceededError(meta.errors?.includes(503) ? 503 : 500);
  // Middy's own time-out covers the function only; the deadline covers the middlewares too.
  let chain = middy<LambdaEvent, unknown, Error, LambdaContext, BoundaryInternal>({ timeoutEarlyInMillis: 0 });
  for (const middleware of [...ALWAYS_ON.map((make) => make(meta)), httpBoundary(meta, publicBaseUrl), ...middlewares]) {
    chain = chain.use(withinDeadline(middleware as HttpMiddleware) as never);
  }
  const handler = chain.handler((event, context) => {
    const deadline = deadlineOf({ context });
    return deadline.race(fn(event, context, deadline.signal));
  }) as unknown as HttpHandler;
  let coldStart = true;
  return async (event, context) => {
    const fields = invocationFields(event, context, coldStart);
    coldStart = false;
    const deadline = startDeadline(context, exceeded);
    try {
      return await withLogContext(fields, () => handler(event, context));
    } finally {
      deadline.stop();
    }
  };
}
