/** Signing in as a test: a code read from the runtime's outbox, and the cookie a sign-in sets. */
import { readOutbox } from '#infra/local/outbox.ts';
import { call, type ClientResponse } from './client.ts';
import { waitFor } from './expectations.ts';

/** How many messages the outbox holds for `email`: take it before asking, and hand it to codeFrom. */
export function mailCount(outbox: string, email: string): number {
  return readOutbox(outbox).filter((message) => message.to === email).length;
}

/** The code of the first message to `email` after the `before`-th, waiting for the mail worker. */
export async function codeFrom(outbox: string, email: string, before: number, timeoutMs = 20_000): Promise<string> {
  return waitFor(async () => {
    const message = readOutbox(outbox).filter((candidate) => candidate.to === email)[before];
    return message ? /\b(\d{6})\b/.exec(message.subject)?.[1] : undefined;
  }, timeoutMs);
}

/** `easel.session_token=…` from a response's Set-Cookie, or undefined. */
export function sessionCookieOf(response: Pick<ClientResponse, 'headers'>): string | undefined {
  return /(?:^|, )((?:__Host-)?easel\.session_token=[^;]*)/.exec(response.headers['set-cookie'] ?? '')?.[1];
}

/** Asks for a code, reads it from the outbox and signs in: the Cookie header of the new session. */
export async function signInWithCode(baseUrl: string, outbox: string, email: string, extra: { name?: string; cookie?: string } = {}): Promise<string> {
  const before = mailCount(outbox, email);
  const asked = await call(baseUrl, '/api/v1/auth/email-code', { body: { email } });
  if (asked.status !== 202) throw new Error(`email-code answered ${asked.status}: ${JSON.stringify(asked.body)}`);
  const code = await codeFrom(outbox, email, before);
  const verified = await call(baseUrl, '/api/v1/auth/email-code/verify', {
    body: { email, code, ...(extra.name ? { name: extra.name } : {}) },
    headers: extra.cookie ? { cookie: extra.cookie } : {},
  });
  const cookie = sessionCookieOf(verified);
  if (verified.status !== 200 || !cookie) throw new Error(`verify answered ${verified.status}: ${JSON.stringify(verified.body)}`);
  return cookie;
}
