/** The answers that set or clear the session cookie: a sign-in, a sign-out, a probe that finds a stale cookie. */
import { carriedSessionCookies, issuedSessionCookie, sessionSetCookie } from '#shared/http/cookies.ts';
import { isHttps } from '#shared/http/headers.ts';
import { reply, type Reply } from '#shared/http/reply.ts';
import type { LambdaEvent } from '#shared/route-types.ts';

/** Expires cookie `name`; over https with Secure, without which a browser ignores it for a `__Host-` or `__Secure-` name. */
const expired = (name: string, secure: boolean) => sessionSetCookie('', { maxAgeSeconds: 0, secure, name });

/** Sets the new session's cookie (`__Host-` and Secure over https, lasting as the session does) and expires the request's other session cookies. */
export function signedInReply(event: LambdaEvent, issued: { token: string; maxAgeSeconds: number; body: unknown }): Reply {
  const secure = isHttps(event);
  const others = carriedSessionCookies(event).filter((name) => name !== issuedSessionCookie(secure));
  return reply.json(issued.body, 200, {
    headers: { 'Cache-Control': 'no-store' },
    cookies: [sessionSetCookie(issued.token, { maxAgeSeconds: issued.maxAgeSeconds, secure }), ...others.map((name) => expired(name, secure))],
  });
}

/** Expires every session cookie the request carried, or the name a session would be issued under when it carried none. */
export function clearedSessionCookies(event: LambdaEvent): string[] {
  const secure = isHttps(event);
  const carried = carriedSessionCookies(event);
  return (carried.length > 0 ? carried : [issuedSessionCookie(secure)]).map((name) => expired(name, secure));
}
