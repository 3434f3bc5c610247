/** Auth of 'apiKey' and 'session' rows, before validation so an anonymous caller learns no schema; `Authorization` is never read (docs/identity.md). */
import { ForbiddenError, UnauthorizedError } from '#shared/errors.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import type { LambdaContext, LambdaEvent, RouteRow } from '#shared/route-types.ts';
import { deadlineOf } from '#shared/http/deadline.ts';
import { requireFeature, requirePermission } from '#shared/identity/authenticator.ts';
import type { Authenticator } from '#shared/identity/authenticator.ts';
import { SESSION_COOKIE, sessionToken } from '#shared/http/cookies.ts';
import { requiredFeatureOf } from '#shared/identity/plans.ts';
import type { Principal, SessionIdentity, SessionPrincipal } from '#shared/identity/principal.ts';
import { log } from '#shared/log.ts';
import { setPrincipal } from '#shared/http/principals.ts';

export interface AuthenticateOptions extends Pick<RouteRow, 'auth' | 'permission' | 'extensions'> {
  /** Called on every request, so it may load lazily. */
  authenticator: () => Authenticator | Promise<Authenticator>;
}

/** Handlers pass the one from #shared/wiring/auth.ts, bound to the container's authenticator. */
export function authenticate(options: AuthenticateOptions): HttpMiddleware {
  const { auth: kind, permission, authenticator } = options;
  if (kind !== 'apiKey' && kind !== 'session') throw new Error(`authenticate() handles apiKey and session routes, not ${kind}`);
  // An unknown feature fails the cold start, not a request.
  const feature = requiredFeatureOf(options);
  const resolve = kind === 'session' ? sessionOnly : workspace;
  // Bookkeeping writes (a key's last-use stamp) end before the response leaves, or at the deadline.
  const settle = async (request: { context: LambdaContext }): Promise<void> => {
    // Nothing to wait for when the authenticator could not start; its error is already the answer.
    const auth = await Promise.resolve()
      .then(authenticator)
      .catch(() => undefined);
    if (auth)
      await deadlineOf(request)
        .race(auth.settle())
        .catch(() => undefined);
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

async function sessionOnly(permission: string | undefined, event: LambdaEvent, auth: Authenticator): Promise<SessionIdentity | SessionPrincipal> {
  if (event.headers?.['x-api-key'] !== undefined) {
    throw new ForbiddenError(
      `This operation takes the ${SESSION_COOKIE} session cookie only; remove the X-API-Key header.`,
      'API key sent to a session-only route',
    );
  }
  const token = sessionToken(event);
  if (!token) throw new UnauthorizedError({ hint: `Sign in: this operation needs the ${SESSION_COOKIE} session cookie.`, cause: 'no session cookie' });
  const identity = await auth.session(token);
  if (!permission) return identity;
  const member = await auth.member(identity);
  requirePermission(member, permission);
  return member;
}

async function workspace(
  permission: string | undefined,
  event: LambdaEvent,
  auth: Authenticator,
  feature: ReturnType<typeof requiredFeatureOf>,
): Promise<Principal> {
  const key = event.headers?.['x-api-key'];
  // A present key wins; the cookies are not even read.
  const token = key === undefined ? sessionToken(event) : undefined;
  let principal: Principal;
  if (key !== undefined) principal = await auth.apiKey(key);
  else if (token) principal = await auth.member(await auth.session(token));
  else
    throw new UnauthorizedError({
      hint: `Send an organization API key in X-API-Key, or sign in to get the ${SESSION_COOKIE} cookie.`,
      cause: 'no API key or session cookie',
    });
  if (permission) requirePermission(principal, permission);
  if (feature) requireFeature(principal, feature);
  return principal;
}
