/** The session cookie, read so one planted by a sibling subdomain never overrides the real session (docs/identity.md, "Which session cookie counts"). */
import { parseCookie, stringifySetCookie } from 'cookie';
import { UnauthorizedError } from '#shared/errors.ts';
import { isHttps } from '#shared/http/headers.ts';
import type { LambdaEvent } from '#shared/route-types.ts';

import { SESSION_COOKIE } from '#shared/identity/principal.ts';

export { SESSION_COOKIE };
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Browsers only accept a `__Secure-` cookie set over https with Secure, so it is honoured only there. */
const SECURE_SESSION_COOKIE = `__Secure-${SESSION_COOKIE}`;

export type SessionCookie =
  | { kind: 'none' }
  | { kind: 'token'; name: string; token: string }
  /** Several different tokens where one was expected: refused, never guessed. */
  | { kind: 'ambiguous'; names: string[] };

/** Every value of a name in API Gateway's `cookies` and a raw header, pair by pair: parseCookie keeps a name's first value only. */
function readCookies(event: LambdaEvent, name: string): string[] {
  const header = event.headers?.cookie;
  const pairs = [...(event.cookies ?? []), ...(header ? [header] : [])].flatMap((cookies) => cookies.split(';'));
  return pairs.map((pair) => parseCookie(pair)[name]).filter((value) => value !== undefined);
}

/** The session cookie names read over the request's scheme, by rank: over https a `__Host-` cookie alone decides. */
const rankedNames = (event: LambdaEvent): string[][] =>
  isHttps(event) ? [[HOST_SESSION_COOKIE], [SECURE_SESSION_COOKIE, SESSION_COOKIE]] : [[SESSION_COOKIE]];

/** The first rank holding a token decides; differing tokens within it are ambiguous. Empty counts as absent. */
export function readSessionCookie(event: LambdaEvent): SessionCookie {
  for (const names of rankedNames(event)) {
    const found = names.flatMap((name) =>
      readCookies(event, name)
        .filter(Boolean)
        .map((token) => ({ name, token })),
    );
    if (found.length === 0) continue;
    if (new Set(found.map((item) => item.token)).size > 1) return { kind: 'ambiguous', names: [...new Set(found.map((item) => item.name))] };
    return { kind: 'token', name: found[0]!.name, token: found[0]!.token };
  }
  return { kind: 'none' };
}

/** The session token the request presents; 401 when its cookies disagree. */
export function sessionToken(event: LambdaEvent): string | undefined {
  const cookie = readSessionCookie(event);
  if (cookie.kind === 'ambiguous') {
    throw new UnauthorizedError({
      hint: `The request carries different session tokens (${cookie.names.join(', ')}); one may have been set by another site of the same domain, so none is used. Clear this site's cookies and sign in again.`,
      cause: 'ambiguous session cookies',
    });
  }
  return cookie.kind === 'token' ? cookie.token : undefined;
}

/** The token a sign-in replaces, if the request holds exactly one; disagreeing cookies name none. */
export function previousSessionToken(event: LambdaEvent): string | undefined {
  const cookie = readSessionCookie(event);
  return cookie.kind === 'token' ? cookie.token : undefined;
}

/** The session cookie names this request carries a value under, of those read over its scheme. */
export function carriedSessionCookies(event: LambdaEvent): string[] {
  return rankedNames(event)
    .flat()
    .filter((name) => readCookies(event, name).some(Boolean));
}

/** The name a session is issued under: `__Host-` over https, so no other subdomain can set a cookie that outranks it. */
export const issuedSessionCookie = (secure: boolean): string => (secure ? HOST_SESSION_COOKIE : SESSION_COOKIE);

/** The Set-Cookie of a session cookie, under the issued name unless `name` says which (to expire another). */
export function sessionSetCookie(token: string, options: { maxAgeSeconds: number; secure: boolean; name?: string }): string {
  return stringifySetCookie({
    name: options.name ?? issuedSessionCookie(options.secure),
    value: token,
    path: '/',
    maxAge: Math.max(0, Math.floor(options.maxAgeSeconds)),
    httpOnly: true,
    sameSite: 'lax',
    secure: options.secure,
  });
}
