import type * as v from 'valibot';
import type { MiddlewareObj } from '@middy/core';
import { principalOf } from '#shared/http/principals.ts';
import { InvalidRequestError, PayloadTooLargeError } from '#shared/errors.ts';
import { createHttpHandler } from '#shared/http/handler.ts';
import type { HttpHandler } from '#shared/http/handler.ts';
import { rateLimitRuleOf } from '#shared/http/rate-limit.ts';
import type { RateLimitRule } from '#shared/rate-limiter.ts';
import type { Reply } from '#shared/http/reply.ts';
import type { BodySpec, LambdaContext, LambdaEvent, RouteRow } from '#shared/route-types.ts';
import { parseWith } from '#shared/http/validation.ts';
import type { Principal, SessionIdentity, SessionPrincipal } from '#shared/identity/principal.ts';
import { mediaTypeOf } from '#shared/net/media-type.ts';
import { parsedForm } from '#shared/http/form.ts';

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;
type BodyOut<B> = B extends { schema: infer S; optional: true } ? Out<S> | undefined : B extends { schema: infer S } ? Out<S> : undefined;
/** Workspace routes get an organization principal; shell routes a member when they name a permission, else the session. */
type PrincipalOf<R> = R extends { auth: 'apiKey' }
  ? Principal
  : R extends { auth: 'session'; permission: string }
    ? SessionPrincipal
    : R extends { auth: 'session' }
      ? SessionIdentity
      : undefined;

/** What a route's function receives: validated input plus the raw event for the rare need. */
export interface RouteInput<R> {
  body: R extends { body: infer B } ? BodyOut<B> : undefined;
  query: R extends { query: infer S } ? Out<S> : undefined;
  params: R extends { params: infer S } ? Out<S> : undefined;
  headers: R extends { headers: infer S } ? Out<S> : undefined;
  /** Who is calling, resolved and authorized by the auth middleware before validation. */
  principal: PrincipalOf<R>;
  /** API Gateway's view of the caller's address; never a client-supplied header. */
  sourceIp: string;
  requestId: string;
  /** Aborted shortly before the Lambda times out. */
  signal: AbortSignal;
  event: LambdaEvent;
  context: LambdaContext;
}

type Middleware = MiddlewareObj<LambdaEvent, unknown, Error, LambdaContext>;

/**
 * Middlewares that some rows' features need, passed in by the factories of shared/wiring/ that
 * build those rows' handlers: they hold AWS clients, which a function without such a row then
 * neither bundles nor creates.
 * route() refuses to build a row whose feature has no middleware here.
 */
export interface RouteUses {
  /** Required when the row publishes `x-easel-rate-limit` (e.g. rateTableLimit). */
  rateLimit?: (operationId: string, rule: RateLimitRule) => Middleware;
  /** Required when the row's auth is 'internal' (internalAuth). */
  internalAuth?: (operationId: string) => Middleware;
  /** Required when the row's auth is 'apiKey' or 'session' (authenticate from #shared/wiring/auth.ts). */
  authenticate?: (def: RouteRow) => Middleware;
  /** Required when the row's body is multipart/form-data (multipartBody, passed by formRoute from #shared/http/multipart.ts). */
  multipart?: (spec: BodySpec) => Middleware;
}

/** What a route's function is, for the row `R`: typed input from the row's schemas. */
export type RouteFn<R> = (input: RouteInput<R>) => Promise<unknown | Reply>;

const ROUTE_OF = Symbol.for('easel.route');

/** The operation id a handler was built for by route(); undefined for any other function. */
export function routeOf(handler: unknown): string | undefined {
  return typeof handler === 'function' ? (handler as { [ROUTE_OF]?: string })[ROUTE_OF] : undefined;
}

type Parsed = { body: unknown; query: unknown; params: unknown; headers: unknown };
/** The invocation's context once validation has run: the input it hands the function. */
type WithInput = LambdaContext & { input?: Parsed };

function mediaType(event: LambdaEvent): string {
  return mediaTypeOf(event.headers?.['content-type']);
}

function readJsonBody(event: LambdaEvent, spec: BodySpec): unknown {
  const raw = event.body;
  if (raw === undefined || raw === null || raw === '') {
    if (spec.optional) return undefined;
    throw new InvalidRequestError('Missing request body', 'Send a JSON body with Content-Type: application/json.');
  }
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > spec.maxBytes) throw new PayloadTooLargeError(spec.maxBytes);
  const type = mediaType(event);
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new InvalidRequestError(
      'Unsupported content type',
      `Send the body as JSON with Content-Type: application/json (got ${type || 'no Content-Type'}).`,
    );
  }
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new InvalidRequestError('Malformed JSON body', `The body is not valid JSON: ${(error as Error).message}.`);
  }
}

/**
 * Validates path, query, headers and body against the row's schemas before the function runs, and
 * leaves the result on the context for route() to hand over. A multipart body is read by the
 * multipartBody middleware before this one; a JSON body is read here.
 */
function validateRequest(def: RouteRow): MiddlewareObj<LambdaEvent, unknown, Error, LambdaContext> {
  return {
    before: async (request) => {
      const { event } = request;
      const parsed: Parsed = { body: undefined, query: undefined, params: undefined, headers: undefined };
      if (def.params) parsed.params = parseWith(def.params, event.pathParameters ?? {}, 'path');
      if (def.query) parsed.query = parseWith(def.query, event.queryStringParameters ?? {}, 'query');
      if (def.headers) parsed.headers = parseWith(def.headers, event.headers ?? {}, 'header');
      if (def.body) {
        const body = def.body.contentType === 'multipart/form-data' ? parsedForm(request) : readJsonBody(event, def.body);
        parsed.body = parseWith(def.body.schema, body, 'body');
      }
      (request.context as WithInput).input = parsed;
    },
  };
}

/**
 * Builds the Lambda handler of one row of the route table. The row supplies the schemas, auth,
 * CORS policy and success status; the function receives typed, validated input and returns data
 * (sent with the row's status) or a Reply. Rows with auth or a rate limit are built through the
 * factories of shared/wiring/ (workspaceRoute, shellRoute, internalRoute, rateLimitedRoute),
 * rows with a multipart body through formRoute (http/multipart.ts), which pass the middleware the
 * row needs. Tests build synthetic rows (test/support/routes.ts) to exercise the stack.
 *
 * @example export const handler = route(getOpenApi, async () => documentReply('openapi'));
 */
export function route<R extends RouteRow>(def: R, fn: RouteFn<R>, uses: RouteUses = {}): HttpHandler {
  const { operationId } = def;
  // Order matters: the rate limit counts every request (even invalid ones), and credentials are
  // checked before the body, so an unauthenticated caller learns nothing about its schema.
  const middlewares: Middleware[] = [];
  const rule = rateLimitRuleOf(operationId, def);
  if (rule) {
    if (!uses.rateLimit) throw new Error(`Route ${operationId} publishes x-easel-rate-limit: pass route(…, { rateLimit })`);
    middlewares.push(uses.rateLimit(operationId, rule));
  }
  if (def.auth === 'internal') {
    if (!uses.internalAuth) throw new Error(`Route ${operationId} has auth 'internal': pass route(…, { internalAuth })`);
    middlewares.push(uses.internalAuth(operationId));
  } else if (def.auth === 'apiKey' || def.auth === 'session') {
    if (!uses.authenticate) throw new Error(`Route ${operationId} has auth '${def.auth}': pass route(…, { authenticate })`);
    middlewares.push(uses.authenticate(def));
  }
  if (def.body?.contentType === 'multipart/form-data') {
    if (!uses.multipart) throw new Error(`Route ${operationId} takes multipart/form-data: pass route(…, { multipart })`);
    middlewares.push(uses.multipart(def.body));
  }
  middlewares.push(validateRequest(def));
  const handler = createHttpHandler(
    { operationId, routeKey: `${def.method} ${def.path}`, cors: def.cors, status: def.status },
    middlewares,
    (event, context, signal) => {
      const parsed = (context as WithInput).input!;
      return fn({
        ...parsed,
        principal: principalOf(context),
        sourceIp: event.requestContext.http.sourceIp,
        requestId: context.awsRequestId || event.requestContext.requestId,
        signal,
        event,
        context,
      } as RouteInput<R>);
    },
  );
  return Object.defineProperty(handler, ROUTE_OF, { value: operationId });
}
