/**
 * The session cookie of sign-in over https, where the local server (plain http) cannot take it: the
 * handler modules the runtime loaded, called with https events. A sign-in issues
 * `__Host-easel.session_token`; `__Secure-easel.session_token` and the contract's name are read too,
 * and every name a request carried is expired when its session ends.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from '#infra/admin/connection.ts';
import type { HttpHandler } from '#shared/http/handler.ts';
import type { RouteDef } from '#shared/route-types.ts';
import { ROUTES } from '#shared/routes.ts';
import * as admin from '#shared/services/identity-admin.ts';
import { call } from '../support/client.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { codeFrom, mailCount, signInWithCode } from '../support/sign-in.ts';

let runtime: TestRuntime;
let db: Connection;

beforeAll(async () => {
  runtime = await startTestRuntime();
  db = connect(runtime.env);
});

afterAll(async () => {
  db?.close();
  await runtime?.dispose();
});

/** Calls the row's handler, the very module the runtime loaded, with an https request. */
async function overHttps(row: Pick<RouteDef, 'handler' | 'method' | 'path'>, request: { cookie?: string; body?: unknown }) {
  const { handler } = (await import(pathToFileURL(resolve(row.handler)).href)) as { handler: HttpHandler };
  const event = apiEvent({
    method: row.method,
    path: row.path,
    body: request.body,
    headers: { 'x-forwarded-proto': 'https', ...(request.cookie ? { cookie: request.cookie } : {}) },
  });
  const result = await handler(event, lambdaContext());
  return { status: result.statusCode, cookies: result.cookies ?? [], body: result.body ? JSON.parse(result.body) : undefined };
}

/** A user of its own per test (the per-address limits), signed in over http: its session token. */
async function signedInUser(name: string): Promise<{ email: string; token: string }> {
  const email = `${name}@cookies.test`;
  await admin.createUser({ store: db.store }, { email, name });
  const cookie = await signInWithCode(runtime.url, runtime.env.EMAIL_OUTBOX!, email);
  return { email, token: cookie.split('=')[1]! };
}

const expired = (name: string) => `${name}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`;
const probe = (token: string) => call(runtime.url, '/api/v1/auth/session', { headers: { cookie: `easel.session_token=${token}` } });

describe('the session cookie over https', () => {
  it('issues __Host-easel.session_token at sign-in, and expires the __Secure- cookie whose session the sign-in ends', async () => {
    // Prepare: a browser holding a session under the __Secure- name, and a new code
    const { email, token } = await signedInUser('rotated');
    const before = mailCount(runtime.env.EMAIL_OUTBOX!, email);
    await call(runtime.url, '/api/v1/auth/email-code', { body: { email } });
    const code = await codeFrom(runtime.env.EMAIL_OUTBOX!, email, before);

    // Act
    const signedIn = await overHttps(ROUTES.verifyEmailCode, { cookie: `__Secure-easel.session_token=${token}`, body: { email, code } });

    // Assess
    expect(signedIn.status).toBe(200);
    expect(signedIn.cookies).toEqual([
      expect.stringMatching(/^__Host-easel\.session_token=easel_st_\w+; Max-Age=604800; Path=\/; HttpOnly; Secure; SameSite=Lax$/),
      expired('__Secure-easel.session_token'),
    ]);
    expect((await probe(token)).body).toEqual({ signedIn: false });
  });

  it.each(['__Host-easel.session_token', '__Secure-easel.session_token', 'easel.session_token'])(
    'recognises %s, and at sign-out ends its session and expires that cookie',
    async (name) => {
      // Prepare
      const { email, token } = await signedInUser(`out-${name.replace(/\W/g, '').toLowerCase()}`);
      const cookie = `${name}=${token}`;

      // Act
      const recognised = await overHttps(ROUTES.getSession, { cookie });
      const signedOut = await overHttps(ROUTES.signOut, { cookie });
      const after = await overHttps(ROUTES.getSession, { cookie });

      // Assess
      expect({ status: recognised.status, cookies: recognised.cookies, email: recognised.body.user?.email }).toEqual({ status: 200, cookies: [], email });
      expect({ status: signedOut.status, cookies: signedOut.cookies }).toEqual({ status: 204, cookies: [expired(name)] });
      expect({ status: after.status, cookies: after.cookies, body: after.body }).toEqual({ status: 200, cookies: [expired(name)], body: { signedIn: false } });
    },
  );

  it('expires every session cookie a sign-out carries, the one that decided and those it outranked', async () => {
    // Prepare: the real session under __Host-, a planted one under the contract's name
    const { token } = await signedInUser('planted');
    const planted = await signedInUser('planter');

    // Act
    const signedOut = await overHttps(ROUTES.signOut, { cookie: `easel.session_token=${planted.token}; __Host-easel.session_token=${token}` });

    // Assess: the session that decided ends, the planted one is only forgotten by the browser
    expect({ status: signedOut.status, cookies: signedOut.cookies }).toEqual({
      status: 204,
      cookies: [expired('__Host-easel.session_token'), expired('easel.session_token')],
    });
    expect((await probe(token)).body).toEqual({ signedIn: false });
    expect((await probe(planted.token)).body.signedIn).toBe(true);
  });
});
