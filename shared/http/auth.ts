/**
 * The authentication and authorization middleware of routes with auth 'apiKey' or 'session'.
 * It runs before input validation, so an anonymous caller learns nothing about a route's schema,
 * and hands the function a typed principal.
 *
 * - 'apiKey' (workspace operations): `X-API-Key` holding the row's scope, or a session whose
 *   role in the active organization grants the row's permission. Then the plan must include the
 *   feature of the row's entitlement extension, if any. A present `X-API-Key`, even empty or
 *   blank, is the credential: a bad one is 401 like any invalid key, never a fall-back to the cookie.
 * - 'session' (shell operations): the session cookie only; any `X-API-Key` is refused with 403.
 *   A row with a permission also needs membership of the active organization and that permission.
 *
 * Which session cookie counts is decided in #shared/http/cookies.ts; cookies that disagree
 * are refused with 401, so a cookie planted by another subdomain never stands in for the real one.
 *
 * An `Authorization` header is never read.
 */
import { ForbiddenError, UnauthorizedError } from '#shared/errors.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import type { LambdaEvent, RouteRow } from '#shared/route-types.ts';
import { requireFeature, requirePermission } from '#shared/identity/authenticator.ts';
import type { Authenticator } from '#shared/identity/authenticator.ts';
import { SESSION_COOKIE, readSessionCookie } from '#shared/http/cookies.ts';
import { requiredFeatureOf } from '#shared/identity/plans.ts';
import type { Principal, SessionIdentity, SessionPrincipal } from '#shared/identity/principal.ts';
import { log } from '#shared/log.ts';
import { setPrincipal } from '#shared/http/principals.ts';

/** The row's auth kind, permission and extensions (its entitlement), and the authenticator. */
export interface AuthenticateOptions extends Pick<RouteRow, 'auth' | 'permission' | 'extensions'> {
  /** Gives the authenticator; called on every request, so it may load lazily. */
  authenticator: () => Authenticator | Promise<Authenticator>;
}

/**
 * The middleware of an 'apiKey' or 'session' row. Handlers pass `authenticate` from
 * #shared/wiring/auth.ts, which binds it to the container's authenticator.
 */
export function authenticate(options: AuthenticateOptions): HttpMiddleware {
  const { auth: kind, permission, authenticator } = options;
  if (kind !== 'apiKey' && kind !== 'session') throw new Error(`authenticate() handles apiKey and session routes, not ${kind}`);
  // Read once at build time: an unknown feature fails the cold start, not a request.
  const feature = requiredFeatureOf(options);
  const resolve = kind === 'session' ? sessionOnly : workspace;
  // The request's bookkeeping writes (a key's last-use stamp) end before its response leaves.
  const settle = async (): Promise<void> => {
    // Nothing to wait for when authentication itself could not start; its error is already the answer.
    const auth = await Promise.resolve().then(authenticator).catch(() => undefined);
    await auth?.settle();
  };
  return {
    after: settle,
    onError: settle,
    before: async (request) => {
      const principal = await resolve(permission, request.event, await authenticator(), feature);
      setPrincipal(request, principal);
      log.debug('authenticated', {
        kind: principal.kind,
        userId: 'userId' in principal ? principal.userId : undefined,
        keyId: 'keyId' in principal ? principal.keyId : undefined,
        organizationId: 'organizationId' in principal ? principal.organizationId : principal.activeOrganizationId,
      });
    },
  };
}

/** The session token of a request, undefined when it has none; 401 when its cookies disagree. */
function sessionToken(event: LambdaEvent): string | undefined {
  const cookie = readSessionCookie(event);
  if (cookie.kind === 'ambiguous') {
    throw new UnauthorizedError({
      hint: `The request carries different session tokens (${cookie.names.join(', ')}); one may have been set by another site of the same domain, so none is used. Clear this site's cookies and sign in again.`,
      cause: 'ambiguous session cookies',
    });
  }
  return cookie.kind === 'token' ? cookie.token : undefined;
}

async function sessionOnly(permission: string | undefined, event: LambdaEvent, auth: Authenticator): Promise<SessionIdentity | SessionPrincipal> {
  if (event.headers?.['x-api-key'] !== undefined) {
    throw new ForbiddenError(`This operation takes the ${SESSION_COOKIE} session cookie only; remove the X-API-Key header.`, 'API key sent to a session-only route');
  }
  const token = sessionToken(event);
  if (!token) throw new UnauthorizedError({ hint: `Sign in: this operation needs the ${SESSION_COOKIE} session cookie.` });
  const identity = await auth.session(token);
  if (!permission) return identity;
  const member = await auth.member(identity);
  requirePermission(member, permission);
  return member;
}

async function workspace(permission: string | undefined, event: LambdaEvent, auth: Authenticator, feature: ReturnType<typeof requiredFeatureOf>): Promise<Principal> {
  const key = event.headers?.['x-api-key'];
  // An explicit key wins over a cookie the browser may send along (its cookies are not even read).
  const token = key === undefined ? sessionToken(event) : undefined;
  let principal: Principal;
  if (key !== undefined) principal = await auth.apiKey(key);
  else if (token) principal = await auth.member(await auth.session(token));
  else throw new UnauthorizedError({ hint: `Send an organization API key in X-API-Key, or sign in to get the ${SESSION_COOKIE} cookie.` });
  if (permission) requirePermission(principal, permission);
  if (feature) requireFeature(principal, feature);
  return principal;
}
