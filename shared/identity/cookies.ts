/**
 * The session cookie: its names, how a request's token is read, and the Set-Cookie value that
 * issues one. The token is opaque; the table holds only its hash.
 */
import { isHttps } from '#shared/http/headers.ts';
import type { LambdaEvent } from '#shared/http/types.ts';

export const SESSION_COOKIE = 'easel.session_token';
/** Browsers only accept a `__Secure-` cookie set over https with Secure, so it is honoured only there. */
export const SECURE_SESSION_COOKIE = `__Secure-${SESSION_COOKIE}`;

/** Cookies of a payload 2.0 event: API Gateway moves them to `cookies`; a raw header is read too. */
function cookiePairs(event: LambdaEvent): string[] {
  const pairs = [...(event.cookies ?? [])];
  const header = event.headers?.cookie;
  if (header) pairs.push(...header.split(';'));
  return pairs.map((pair) => pair.trim()).filter(Boolean);
}

/** The first value of a cookie, or undefined. */
export function readCookie(event: LambdaEvent, name: string): string | undefined {
  for (const pair of cookiePairs(event)) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The session token a request carries: `__Secure-easel.session_token` over https (preferred),
 * else `easel.session_token`. Empty values count as absent.
 */
export function readSessionToken(event: LambdaEvent): string | undefined {
  const secure = isHttps(event) ? readCookie(event, SECURE_SESSION_COOKIE) : undefined;
  const token = secure || readCookie(event, SESSION_COOKIE);
  return token ? token : undefined;
}

/**
 * The Set-Cookie value that issues a session: HttpOnly (no script reads it), SameSite=Lax (not
 * sent on cross-site subrequests), Path=/, and Secure when served over https.
 */
export function sessionSetCookie(token: string, options: { maxAgeSeconds: number; secure: boolean }): string {
  const parts = [`${SESSION_COOKIE}=${token}`, 'Path=/', `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
