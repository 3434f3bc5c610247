/** The one factory of HTTP handlers: boundary, the row's feature middlewares, validation, then the function. */
import type * as v from 'valibot';
import { principalOf } from '#shared/http/principals.ts';
import { createHttpHandler } from '#shared/http/handler.ts';
import type { HttpHandler, HttpMiddleware } from '#shared/http/handler.ts';
import { RATE_LIMIT_EXTENSION, rateLimitRuleOf } from '#shared/http/rate-limit.ts';
import type { Reply } from '#shared/http/reply.ts';
import { replayOf } from '#shared/http/replay.ts';
import { requestIdOf } from '#shared/http/request-id.ts';
import type { AnySchema, BodySpec, LambdaContext, LambdaEvent, RouteRow } from '#shared/route-types.ts';
import { validateInput, validatedInput } from '#shared/http/validation.ts';
import type { Principal, SessionIdentity, SessionPrincipal, SourceAppPrincipal } from '#shared/identity/principal.ts';

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;
type BodyOut<B> = B extends { schema: infer S; optional: true } ? Out<S> | undefined : B extends { schema: infer S } ? Out<S> : undefined;
/** Workspace routes get an organization principal; shell routes a member when they name a permission, else the session. */
type PrincipalOf<R> = R extends { auth: 'apiKey' }
  ? Principal
  : R extends { auth: 'webhook' }
    ? SourceAppPrincipal
    : R extends { auth: 'session'; permission: string }
      ? SessionPrincipal
      : R extends { auth: 'session' }
        ? SessionIdentity
        : undefined;

export interface RouteInput<R> {
  body: R extends { body: infer B } ? BodyOut<B> : undefined;
  query: R extends { query: infer S } ? Out<S> : undefined;
  params: R extends { params: infer S } ? Out<S> : undefined;
  headers: R extends { headers: infer S } ? Out<S> : undefined;
  principal: PrincipalOf<R>;
  /** API Gateway's view of the caller's address, never a client-supplied header. */
  sourceIp: string;
  requestId: string;
  /** Aborted at the invocation's deadline, shortly before Lambda's time-out (http/deadline.ts). */
  signal: AbortSignal;
  event: LambdaEvent;
  context: LambdaContext;
}

export type RouteFn<R> = (input: RouteInput<R>) => Promise<unknown | Reply>;

const ROUTE_OF = Symbol.for('easel.route');

/** The operation id route() built a handler for; undefined for any other function. */
export function routeOf(handler: unknown): string | undefined {
  return typeof handler === 'function' ? (handler as { [ROUTE_OF]?: string })[ROUTE_OF] : undefined;
}

/** A feature a row may declare (`name` is its factory's key in route()'s last argument). */
interface Feature<Name extends string, Row extends RouteRow, Options> {
  name: Name;
  /** Its type is what the compiler checks rows against. */
  declaredBy: (row: RouteRow) => row is Row;
  says: (row: Row) => string;
  options: (row: Row) => Options;
}

const feature = <Name extends string, Row extends RouteRow, Options>(spec: Feature<Name, Row, Options>) => spec;

/**
 * In run order: the rate limit counts even invalid requests; auth precedes the body, so a caller without credentials learns
 * nothing of its schema (a webhook's signature is over the unparsed bytes); an Idempotency-Key is the workspace's, so it follows auth.
 */
const FEATURES = [
  feature({
    name: 'rateLimit',
    declaredBy: (row): row is RouteRow & { extensions: { [RATE_LIMIT_EXTENSION]: object } } => row.extensions?.[RATE_LIMIT_EXTENSION] !== undefined,
    says: () => `publishes ${RATE_LIMIT_EXTENSION}`,
    options: (row) => ({ operationId: row.operationId, rule: rateLimitRuleOf(row)! }),
  }),
  feature({
    name: 'internalAuth',
    declaredBy: (row): row is RouteRow & { auth: 'internal' } => row.auth === 'internal',
    says: (row) => `has auth '${row.auth}'`,
    options: (row) => ({ operationId: row.operationId }),
  }),
  feature({
    name: 'authenticate',
    declaredBy: (row): row is RouteRow & { auth: 'apiKey' | 'session' } => row.auth === 'apiKey' || row.auth === 'session',
    says: (row) => `has auth '${row.auth}'`,
    options: ({ auth, permission, extensions }) => ({ auth, permission, extensions }),
  }),
  feature({
    name: 'verifyWebhook',
    declaredBy: (row): row is RouteRow & { auth: 'webhook'; params: AnySchema; body: BodySpec } =>
      row.auth === 'webhook' && row.params !== undefined && row.body !== undefined,
    says: (row) => `has auth '${row.auth}'`,
    options: (row) => ({ params: row.params, maxBytes: row.body.maxBytes }),
  }),
  feature({
    name: 'idempotency',
    declaredBy: (row): row is RouteRow & { idempotent: true } => row.idempotent === true,
    says: () => 'is idempotent',
    options: (row) => ({
      operationId: row.operationId,
      status: row.status,
      timeoutSeconds: row.timeout,
      keyFrom: row.auth === 'webhook' ? ('delivery' as const) : ('header' as const),
    }),
  }),
  feature({
    name: 'multipartBody',
    declaredBy: (row): row is RouteRow & { body: BodySpec & { contentType: 'multipart/form-data' } } => row.body?.contentType === 'multipart/form-data',
    says: () => 'takes multipart/form-data',
    options: (row) => row.body,
  }),
];

type AnyFeature = (typeof FEATURES)[number];
type FactoryOf<F> = F extends Feature<string, infer _Row, infer Options> ? (options: Options) => HttpMiddleware : never;
type RowOf<F> = F extends Feature<string, infer Row, unknown> ? Row : never;

export type RouteUses = { [F in AnyFeature as F['name']]?: FactoryOf<F> };

/** A handler that leaves out a middleware its row needs does not compile. */
type NeededBy<R> = { [F in AnyFeature as R extends RowOf<F> ? F['name'] : never]-?: FactoryOf<F> };

/** Required when the row declares a feature; rows typed only as RouteRow are checked when built. */
// biome-ignore lint/complexity/noBannedTypes: `{} extends` asks whether the mapped type has no keys.
type UsesArgument<R> = {} extends NeededBy<R> ? [uses?: RouteUses] : [uses: RouteUses & NeededBy<R>];

/** Throws at cold start when a declared middleware is missing or an undeclared one is passed. */
function middlewaresOf(row: RouteRow, uses: RouteUses): HttpMiddleware[] {
  const middlewares: HttpMiddleware[] = [];
  const declared = new Set<string>();
  for (const spec of FEATURES as readonly Feature<keyof RouteUses, RouteRow, unknown>[]) {
    if (!spec.declaredBy(row)) continue;
    declared.add(spec.name);
    const options = spec.options(row);
    const factory = uses[spec.name] as ((options: unknown) => HttpMiddleware) | undefined;
    if (!factory) throw new Error(`Route ${row.operationId} ${spec.says(row)}: pass route(…, { ${spec.name} })`);
    middlewares.push(factory(options));
  }
  // An unused middleware would still put its clients into the bundle.
  const unused = Object.keys(uses).filter((name) => !declared.has(name));
  if (unused.length > 0) throw new Error(`Route ${row.operationId} declares no ${unused.join(', ')}: remove it from route(…)`);
  return middlewares;
}

/**
 * One row's Lambda handler: `fn` gets typed, validated input and returns data (sent with the row's status) or a Reply.
 * @example export const handler = route(routes.deleteAsset, async ({ params, principal }) => …, { authenticate });
 */
export function route<R extends RouteRow>(row: R, fn: RouteFn<R>, ...[uses]: UsesArgument<R>): HttpHandler {
  const { operationId } = row;
  const middlewares = [...middlewaresOf(row, uses ?? {}), validateInput(row)];
  const handler = createHttpHandler(
    { operationId, routeKey: `${row.method} ${row.path}`, cors: row.cors, auth: row.auth, status: row.status, errors: row.errors },
    middlewares,
    async (event, context, signal) =>
      replayOf(context) ??
      fn({
        ...validatedInput(context),
        principal: principalOf(context),
        sourceIp: event.requestContext.http.sourceIp,
        requestId: requestIdOf(event, context),
        signal,
        event,
        context,
      } as RouteInput<R>),
  );
  return Object.defineProperty(handler, ROUTE_OF, { value: operationId });
}
