/**
 * The session cookie: its names, how a request's token is read, and the Set-Cookie value that
 * issues one. The token is opaque; the table holds only its hash.
 *
 * The rule (README, "Identity"): a cookie that another subdomain of the same site could plant
 * must never override the real session.
 * - Over https the session is issued as `__Host-easel.session_token`. Browsers accept a `__Host-`
 *   cookie only with Secure, Path=/ and no Domain, so only this host can set it; when a request
 *   carries one, it alone decides, and the other names are ignored.
 * - Otherwise `easel.session_token` (the contract's name, and the only one over plain http) and,
 *   over https, `__Secure-easel.session_token` are read. A sibling subdomain can set those (with
 *   Domain=<parent>), so when they carry more than one distinct token the request is refused
 *   with 401 instead of picking one.
 */
import { parseCookie, stringifySetCookie } from 'cookie';
import { isHttps } from '#shared/http/headers.ts';
import type { LambdaEvent } from '#shared/route-types.ts';

export const SESSION_COOKIE = 'easel.session_token';
/** The name sessions are issued under over https; no other host can set a `__Host-` cookie. */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Browsers only accept a `__Secure-` cookie set over https with Secure, so it is honoured only there. */
const SECURE_SESSION_COOKIE = `__Secure-${SESSION_COOKIE}`;

/** What a request's cookies say about its session. */
export type SessionCookie =
  | { kind: 'none' }
  | { kind: 'token'; name: string; token: string }
  /** Several different tokens where one was expected: refused, never guessed. */
  | { kind: 'ambiguous'; names: string[] };

/**
 * Every value a request gives a cookie name, in order. API Gateway moves payload 2.0 cookies to
 * `cookies`; a raw header is read too. Each pair is parsed on its own because parseCookie keeps
 * only a name's first value, and a repeated name is what the rule must see.
 */
function readCookies(event: LambdaEvent, name: string): string[] {
  const header = event.headers?.cookie;
  const pairs = [...(event.cookies ?? []), ...(header ? [header] : [])].flatMap((cookies) => cookies.split(';'));
  return pairs.map((pair) => parseCookie(pair)[name]).filter((value) => value !== undefined);
}

/**
 * The session a request carries, by the rule above: the `__Host-` cookie alone when present over
 * https, else the other accepted names, refused as ambiguous when they disagree. Empty values
 * count as absent; the same token sent twice is one token.
 */
export function readSessionCookie(event: LambdaEvent): SessionCookie {
  const tiers = isHttps(event) ? [[HOST_SESSION_COOKIE], [SECURE_SESSION_COOKIE, SESSION_COOKIE]] : [[SESSION_COOKIE]];
  for (const names of tiers) {
    const found = names.flatMap((name) => readCookies(event, name).filter(Boolean).map((token) => ({ name, token })));
    if (found.length === 0) continue;
    if (new Set(found.map((item) => item.token)).size > 1) return { kind: 'ambiguous', names: [...new Set(found.map((item) => item.name))] };
    return { kind: 'token', name: found[0]!.name, token: found[0]!.token };
  }
  return { kind: 'none' };
}

/**
 * The Set-Cookie value that issues a session: HttpOnly (no script reads it), SameSite=Lax (not
 * sent on cross-site subrequests), Path=/, and over https the `__Host-` name with Secure and no
 * Domain, so no other subdomain can set a cookie that outranks it.
 */
export function sessionSetCookie(token: string, options: { maxAgeSeconds: number; secure: boolean }): string {
  return stringifySetCookie({
    name: options.secure ? HOST_SESSION_COOKIE : SESSION_COOKIE,
    value: token,
    path: '/',
    maxAge: Math.max(0, Math.floor(options.maxAgeSeconds)),
    httpOnly: true,
    sameSite: 'lax',
    secure: options.secure,
  });
}
