/**
 * Where the auth middleware leaves the principal it resolved for a request: on the invocation's
 * context, Middy's way for a middleware to hand something to the handler. Kept apart from the
 * middleware so route() can hand it to functions without bundling the identity store (and its
 * DynamoDB client) into anonymous routes.
 */
import type { LambdaContext } from '#shared/route-types.ts';
import type { Principal, SessionIdentity } from '#shared/identity/principal.ts';

/** Whoever the middleware resolved for a request. */
export type ResolvedPrincipal = Principal | SessionIdentity;

type WithPrincipal = LambdaContext & { principal?: ResolvedPrincipal };

/** The principal resolved for this invocation (undefined on anonymous routes). */
export function principalOf(context: LambdaContext): ResolvedPrincipal | undefined {
  return (context as WithPrincipal).principal;
}

/** Records the principal the auth middleware resolved; route() hands it to the function. */
export function setPrincipal(request: { context: LambdaContext }, principal: ResolvedPrincipal): void {
  (request.context as WithPrincipal).principal = principal;
}
