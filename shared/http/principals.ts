/**
 * Where the auth middleware leaves the principal it resolved for a request. Kept apart from the
 * middleware so route() can hand it to functions without bundling the identity store (and its
 * DynamoDB client) into anonymous routes.
 */
import type { LambdaEvent } from '#shared/route-types.ts';
import type { Principal, SessionIdentity } from '#shared/identity/principal.ts';

/** Whoever the middleware resolved for a request. */
export type ResolvedPrincipal = Principal | SessionIdentity;

const principals = new WeakMap<LambdaEvent, ResolvedPrincipal>();

/** The principal resolved for this event (undefined on anonymous routes). */
export function principalOf(event: LambdaEvent): ResolvedPrincipal | undefined {
  return principals.get(event);
}

/** Records the principal the auth middleware resolved; route() hands it to the function. */
export function setPrincipal(event: LambdaEvent, principal: ResolvedPrincipal): void {
  principals.set(event, principal);
}
