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
import { isHttps } from '#shared/http/headers.ts';
import type { LambdaEvent } from '#shared/route-types.ts';

export const SESSION_COOKIE = 'easel.session_token';
/** The name sessions are issued under over https; no other host can set a `__Host-` cookie. */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Browsers only accept a `__Secure-` cookie set over https with Secure, so it is honoured only there. */
export const SECURE_SESSION_COOKIE = `__Secure-${SESSION_COOKIE}`;

/** What a request's cookies say about its session. */
export type SessionCookie =
  | { kind: 'none' }
  | { kind: 'token'; name: string; token: string }
  /** Several different tokens where one was expected: refused, never guessed. */
  | { kind: 'ambiguous'; names: string[] };

/** Cookies of a payload 2.0 event: API Gateway moves them to `cookies`; a raw header is read too. */
function cookiePairs(event: LambdaEvent): string[] {
  const pairs = [...(event.cookies ?? [])];
  const header = event.headers?.cookie;
  if (header) pairs.push(...header.split(';'));
  return pairs.map((pair) => pair.trim()).filter(Boolean);
}

/** Every value a request gives a cookie name, in order (a name can arrive more than once). */
export function readCookies(event: LambdaEvent, name: string): string[] {
  const values: string[] = [];
  for (const pair of cookiePairs(event)) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) values.push(pair.slice(at + 1).trim());
  }
  return values;
}

/** The first value of a cookie, or undefined. */
export function readCookie(event: LambdaEvent, name: string): string | undefined {
  return readCookies(event, name)[0];
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

/** The cookie name a session is issued under: `__Host-easel.session_token` over https, else `easel.session_token`. */
export function sessionCookieName(https: boolean): string {
  return https ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}

/**
 * The Set-Cookie value that issues a session: HttpOnly (no script reads it), SameSite=Lax (not
 * sent on cross-site subrequests), Path=/, and over https the `__Host-` name with Secure and no
 * Domain, so no other subdomain can set a cookie that outranks it.
 */
export function sessionSetCookie(token: string, options: { maxAgeSeconds: number; secure: boolean }): string {
  const parts = [`${sessionCookieName(options.secure)}=${token}`, 'Path=/', `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
