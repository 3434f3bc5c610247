/** The answers that set or clear the session cookie: a sign-in, a sign-out, a probe that finds a stale cookie. */
import { readSessionCookie, sessionSetCookie } from '#shared/http/cookies.ts';
import { isHttps } from '#shared/http/headers.ts';
import { reply, type Reply } from '#shared/http/reply.ts';
import type { LambdaEvent } from '#shared/route-types.ts';

/** Sets the cookie of a session just issued: HttpOnly, SameSite=Lax, Secure and `__Host-` over https, lasting as the session does. */
export function signedInReply(event: LambdaEvent, issued: { token: string; maxAgeSeconds: number; body: unknown }): Reply {
  return reply.json(issued.body, 200, {
    headers: { 'Cache-Control': 'no-store' },
    cookies: [sessionSetCookie(issued.token, { maxAgeSeconds: issued.maxAgeSeconds, secure: isHttps(event) })],
  });
}

/** Expires the cookie this request would be issued under. */
export function clearedSessionCookie(event: LambdaEvent): string {
  return sessionSetCookie('', { maxAgeSeconds: 0, secure: isHttps(event) });
}

/** The token a sign-in replaces, if the request holds exactly one; disagreeing cookies name none. */
export function previousSessionToken(event: LambdaEvent): string | undefined {
  const cookie = readSessionCookie(event);
  return cookie.kind === 'token' ? cookie.token : undefined;
}
