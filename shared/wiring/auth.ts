/**
 * The auth middleware on this container's authenticator, and the factories of the handlers whose
 * rows have auth 'apiKey' (workspaceRoute) or 'session' (shellRoute), which pass it to route().
 */
import type { MiddlewareObj } from '@middy/core';
import { authenticateWith } from '#shared/http/auth.ts';
import type { LambdaContext, LambdaEvent, RouteRow } from '#shared/route-types.ts';
import type { HttpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/http/route.ts';
import type { RouteFn } from '#shared/http/route.ts';
import { containerAuthenticator } from '#shared/wiring/authenticator.ts';

/**
 * The auth middleware of a row on the container's authenticator, created on first use.
 * (Anonymous routes do not bundle this module at all: their handlers never pass `authenticate`
 * to route().) The import is static: esbuild cannot tree-shake what a dynamic import() reaches,
 * which put the SDK's whole DynamoDB client (every command's schema, the waiters, ~50 KB) into
 * every authenticated function, and each of them imports the DynamoDB client anyway.
 */
export function authenticate(def: RouteRow): MiddlewareObj<LambdaEvent, unknown, Error, LambdaContext> {
  return authenticateWith(def, async () => containerAuthenticator());
}

/** The handler of a workspace row (auth 'apiKey'): an API key with the row's scope, or a session with its permission. */
export const workspaceRoute = <R extends RouteRow & { auth: 'apiKey' }>(row: R, fn: RouteFn<R>): HttpHandler => route(row, fn, { authenticate });

/** The handler of a shell row (auth 'session'): the session cookie, and membership when the row names a permission. */
export const shellRoute = <R extends RouteRow & { auth: 'session' }>(row: R, fn: RouteFn<R>): HttpHandler => route(row, fn, { authenticate });
