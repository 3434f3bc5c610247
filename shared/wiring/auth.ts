/**
 * The auth middleware on this container's authenticator: what a handler whose row has auth
 * 'apiKey' or 'session' passes to route() as `uses.authenticate`.
 */
import type { MiddlewareObj } from '@middy/core';
import { authenticateWith } from '#shared/http/auth.ts';
import type { LambdaContext, LambdaEvent, RouteDef } from '#shared/route-types.ts';

/**
 * The authenticator is loaded on first use: the DynamoDB client is evaluated only when the first
 * credential is checked. (Anonymous routes do not bundle this module at all: their handlers never
 * pass `authenticate` to route().)
 */
export function authenticate(def: RouteDef): MiddlewareObj<LambdaEvent, unknown, Error, LambdaContext> {
  return authenticateWith(def, async () => (await import('#shared/wiring/identity.ts')).containerAuthenticator());
}
