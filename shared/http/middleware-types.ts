/** The shapes every HTTP middleware shares; apart from handler.ts so the always-on list can import them without a circle. */
import type { MiddlewareObj } from '@middy/core';
import type { AuthKind, CorsPolicy, LambdaContext, LambdaEvent } from '#shared/route-types.ts';

export interface HandlerMeta {
  operationId: string;
  routeKey: string;
  cors: CorsPolicy | ((event: LambdaEvent) => CorsPolicy);
  /** How the route authenticates; the fallback authenticates nothing. */
  auth?: AuthKind;
  /** Status of a plain returned value; 200 when absent. */
  status?: number;
  /** The error statuses its contract lists (the row's `errors`). */
  errors?: readonly number[];
}

export type HttpMiddleware = MiddlewareObj<LambdaEvent, unknown, Error, LambdaContext>;

/** An always-on middleware: built once per handler from what the handler serves. */
export type AlwaysOn = (meta: HandlerMeta) => HttpMiddleware;
