/** Hands the auth middleware's principal to the function on the context; apart, so anonymous routes do not bundle the identity store. */
import type { LambdaContext } from '#shared/route-types.ts';
import type { Principal, SessionIdentity, SourceAppPrincipal } from '#shared/identity/principal.ts';

export type ResolvedPrincipal = Principal | SessionIdentity | SourceAppPrincipal;

type WithPrincipal = LambdaContext & { principal?: ResolvedPrincipal };

/** Undefined on anonymous routes. */
export function principalOf(context: LambdaContext): ResolvedPrincipal | undefined {
  return (context as WithPrincipal).principal;
}

export function setPrincipal(request: { context: LambdaContext }, principal: ResolvedPrincipal): void {
  (request.context as WithPrincipal).principal = principal;
}
