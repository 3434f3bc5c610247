/**
 * Sign-in through the local runtime: e-mail codes from the outbox (tries, expiry, single use,
 * rate limits, no enumeration), sessions (the cookie, rotation, listing, ending, sign-out),
 * invitations and sign-up, passkeys from a software authenticator (replay, wrong origin, unknown
 * credential), the origin check, and the asset list the editor shows.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashAddress, hashEmailCode } from '#shared/identity/credentials.ts';
import { readOutbox } from '#infra/local/outbox.ts';
import * as admin from '#shared/services/identity-admin.ts';
import { connect, type Connection } from '#infra/admin/connection.ts';
import { call, freshClient } from '../support/client.ts';
import { inOneWindow } from '../support/clock.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { codeFrom, mailCount, sessionCookieOf, signInWithCode } from '../support/sign-in.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { createAsset } from '../support/route-requests.ts';

let runtime: TestRuntime;
let db: Connection;
let deps: admin.AdminDeps;
let outbox = '';
let organizationId = '';
let workspaceKey = '';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/153.0.0.0 Safari/537.36';

beforeAll(async () => {
  runtime = await startTestRuntime();
  outbox = runtime.env.EMAIL_OUTBOX!;
  db = connect(runtime.env);
  deps = { store: db.store };
  await admin.createUser(deps, { email: 'ada@example.com', name: 'Ada Lovelace' });
  const { organization } = await admin.createOrganization(deps, { name: 'Analytical', plan: 'pro', ownerUserId: 'ada@example.com' });
  organizationId = organization.organizationId;
  workspaceKey = (await admin.issueApiKey(deps, { organizationId, name: 'sign-in tests' })).key;
});

afterAll(async () => {
  db?.close();
  await runtime?.dispose();
});

const envelope = (status: number, code: string) => expectedEnvelope(runtime.url, status, code);
const ask = (email: string, from?: string) => call(runtime.url, '/api/v1/auth/email-code', { body: { email }, ...(from ? { from } : {}) });
const verify = (body: Record<string, unknown>, headers: Record<string, string> = {}, from?: string) =>
  call(runtime.url, '/api/v1/auth/email-code/verify', { body, headers, ...(from ? { from } : {}) });
const session = (cookie: string) => call(runtime.url, '/api/v1/auth/session', { headers: { cookie } });
const messagesTo = (email: string) => readOutbox(outbox).filter((message) => message.to === email);
/** A user of its own per test, a member of Analytical: the per-address limits count per test. */
async function memberNamed(name: string): Promise<string> {
  const email = `${name}@example.com`;
  await admin.createUser(deps, { email, name });
  await admin.addMember(deps, { organizationId, user: email, role: 'member' });
  return email;
}

describe('e-mail codes', () => {
  it('mails a 6-digit code and signs in with it, setting an HttpOnly, SameSite=Lax session cookie', async () => {
    // Prepare
    const before = mailCount(outbox, 'ada@example.com');

    // Act
    const asked = await ask('ADA@example.com');
    const code = await codeFrom(outbox, 'ada@example.com', before);
    const signedIn = await verify({ email: 'ada@example.com', code }, { 'user-agent': CHROME });

    // Assess
    expect({ status: asked.status, body: asked.body }).toEqual({ status: 202, body: { email: 'ada@example.com', expiresInSeconds: 600, attempts: 5 } });
    expect(code).toMatch(/^\d{6}$/);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers['set-cookie']).toMatch(/^easel\.session_token=easel_st_\w+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(signedIn.body).toEqual({
      signedIn: true,
      user: { id: expect.stringMatching(/^usr_/), name: 'Ada Lovelace', email: 'ada@example.com', avatarUrl: null },
      session: { id: expect.stringMatching(/^ses_/), createdAt: expect.any(String), expiresAt: expect.any(String), method: 'email-code' },
      activeOrganizationId: organizationId,
      invitations: [],
    });
    const me = await call(runtime.url, '/api/v1/me', { headers: { cookie: sessionCookieOf(signedIn)! } });
    expect(me.body.email).toBe('ada@example.com');
  });

  it('answers an address without an account exactly as one with, and mails it nothing', async () => {
    // Prepare
    const before = mailCount(outbox, 'ada@example.com');

    // Act
    const known = await ask('ada@example.com');
    const unknown = await ask('stranger@example.com');
    await codeFrom(outbox, 'ada@example.com', before);

    // Assess: same status, headers that matter and body shape; no mail, no code to try
    expect(unknown.status).toBe(known.status);
    expect(Object.keys(unknown.body)).toEqual(Object.keys(known.body));
    expect(unknown.body).toEqual({ ...known.body, email: 'stranger@example.com' });
    expect(messagesTo('stranger@example.com')).toEqual([]);
    const tried = await verify({ email: 'stranger@example.com', code: '123456' });
    expect({ status: tried.status, body: tried.body }).toEqual({ status: 400, body: envelope(400, 'invalid_request') });
    expect(tried.body.error).toBe('Wrong or expired code');
  });

  it('refuses a wrong code, then the sixth try even with the right code, and counts nothing after', async () => {
    // Prepare
    await admin.createUser(deps, { email: 'tries@example.com', name: 'Tries' });
    await ask('tries@example.com');
    const code = await codeFrom(outbox, 'tries@example.com', 0);
    const wrong = code === '000000' ? '111111' : '000000';

    // Act
    const answers = [];
    for (let attempt = 0; attempt < 5; attempt += 1) answers.push(await verify({ email: 'tries@example.com', code: wrong }));
    const right = await verify({ email: 'tries@example.com', code });

    // Assess
    expect(answers.map((answer) => [answer.status, answer.body.error])).toEqual(Array(5).fill([400, 'Wrong or expired code']));
    expect({ status: right.status, body: right.body }).toEqual({ status: 400, body: envelope(400, 'invalid_request') });
    expect(right.body.error).toBe('Too many wrong codes');
    expect(sessionCookieOf(right)).toBeUndefined();
  });

  it('takes a code once, and refuses an expired one', async () => {
    // Prepare: a used code, and a code written already expired
    await admin.createUser(deps, { email: 'once@example.com', name: 'Once' });
    await ask('once@example.com');
    const code = await codeFrom(outbox, 'once@example.com', 0);
    expect((await verify({ email: 'once@example.com', code })).status).toBe(200);
    const address = hashAddress('once@example.com');
    const past = Math.floor(Date.now() / 1000) - 1;
    await db.store.putEmailCode({ addressHash: address, codeHash: hashEmailCode(address, '424242'), createdAt: new Date().toISOString(), expiresAt: past });

    // Act
    const again = await verify({ email: 'once@example.com', code });
    const expired = await verify({ email: 'once@example.com', code: '424242' });

    // Assess
    for (const answer of [again, expired])
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: envelope(400, 'invalid_request') });
  });

  it('keeps neither a code nor a session token in clear in the table', async () => {
    // Prepare
    const email = await memberNamed('stored');
    await ask(email);
    const code = await codeFrom(outbox, email, 0);

    // Act
    const item = await db.store.countEmailCodeTry(hashAddress(email), 5);

    // Assess: only its hash, bound to the address
    expect(item).toMatchObject({ codeHash: hashEmailCode(hashAddress(email), code), attempts: 1 });
    expect(JSON.stringify(item)).not.toContain(code);
  });

  it('limits codes asked for per address, whatever the IP, and per IP, with the rate envelope', async () => {
    await inOneWindow(3600, async () => {
      // Act: five addresses' worth from fresh IPs for one address, then a sixth
      const answers = [];
      for (let index = 0; index < 6; index += 1) answers.push(await ask('limited@example.com', freshClient()));
      // Assess
      expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202]);
      expect({ status: answers[5]!.status, body: answers[5]!.body }).toEqual({
        status: 429,
        body: { ...envelope(429, 'rate_limited'), retryAfter: expect.any(Number) },
      });
      expect(answers[5]!.body.hint).toMatch(/per e-mail address/);
      expect(answers[5]!.headers['retry-after']).toBe(String(answers[5]!.body.retryAfter));
    });
    await inOneWindow(600, async () => {
      const from = freshClient();
      const answers = [];
      for (let index = 0; index < 11; index += 1) answers.push(await ask(`ip-${index}@example.com`, from));
      expect(answers.map((answer) => answer.status)).toEqual([...Array(10).fill(202), 429]);
      expect(answers[10]!.body.hint).toMatch(/per IP address/);
    });
  });

  it('refuses malformed input with the envelope, and a browser on another site with 403', async () => {
    // Act
    const badEmail = await ask('not-an-address');
    const badCode = await verify({ email: 'ada@example.com', code: '12ab' });
    const extra = await call(runtime.url, '/api/v1/auth/email-code', { body: { email: 'ada@example.com', admin: true } });
    const crossSite = await call(runtime.url, '/api/v1/auth/email-code/verify', {
      body: { email: 'ada@example.com', code: '123456' },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });

    // Assess
    for (const answer of [badEmail, badCode, extra])
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: envelope(400, 'invalid_request') });
    expect({ status: crossSite.status, body: crossSite.body }).toEqual({ status: 403, body: envelope(403, 'forbidden') });
  });
});

describe('sessions', () => {
  it('rotates at sign-in: the session the browser held before ends', async () => {
    // Prepare
    const email = await memberNamed('rotate');
    const first = await signInWithCode(runtime.url, outbox, email);

    // Act
    const second = await signInWithCode(runtime.url, outbox, email, { cookie: first });

    // Assess
    expect(second).not.toBe(first);
    expect((await session(first)).body).toEqual({ signedIn: false });
    expect((await session(second)).body.signedIn).toBe(true);
  });

  it('lists sessions with device and times, ends one, ends all others, and signs out', async () => {
    // Prepare: three sessions of one user, one from a browser
    await admin.createUser(deps, { email: 'many@example.com', name: 'Many' });
    await ask('many@example.com');
    const chrome = sessionCookieOf(await verify({ email: 'many@example.com', code: await codeFrom(outbox, 'many@example.com', 0) }, { 'user-agent': CHROME }))!;
    const second = await signInWithCode(runtime.url, outbox, 'many@example.com');
    const third = await signInWithCode(runtime.url, outbox, 'many@example.com');

    // Act
    const listed = await call(runtime.url, '/api/v1/auth/sessions', { headers: { cookie: third } });
    const chromeId = listed.body.sessions.find((item: { device: string }) => item.device === 'Chrome 153 on Linux')?.id;
    const ended = await call(runtime.url, `/api/v1/auth/sessions/${chromeId}`, { method: 'DELETE', headers: { cookie: third } });
    const unknown = await call(runtime.url, `/api/v1/auth/sessions/${chromeId}`, { method: 'DELETE', headers: { cookie: third } });
    const others = await call(runtime.url, '/api/v1/auth/sessions', { method: 'DELETE', headers: { cookie: third } });
    const signedOut = await call(runtime.url, '/api/v1/auth/sign-out', { method: 'POST', headers: { cookie: third } });
    const again = await call(runtime.url, '/api/v1/auth/sign-out', { method: 'POST', headers: { cookie: third } });

    // Assess
    expect(listed.body.sessions).toHaveLength(3);
    expect(listed.body.sessions[0]).toEqual({
      id: expect.stringMatching(/^ses_/),
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      method: 'email-code',
      device: 'Unknown device',
      lastSeenAt: expect.any(String),
      current: true,
    });
    expect(chromeId).toBeDefined();
    expect(ended.status).toBe(204);
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: envelope(404, 'not_found') });
    expect({ status: others.status, body: others.body }).toEqual({ status: 200, body: { ended: 1 } });
    expect(signedOut.status).toBe(204);
    expect(signedOut.headers['set-cookie']).toBe('easel.session_token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax');
    expect(again.status).toBe(204);
    for (const cookie of [chrome, second, third]) expect((await session(cookie)).body).toEqual({ signedIn: false });
    const after = await call(runtime.url, '/api/v1/me', { headers: { cookie: third } });
    expect({ status: after.status, body: after.body }).toEqual({ status: 401, body: envelope(401, 'unauthorized') });
  });

  it('answers an anonymous probe with signedIn false and clears a stale cookie', async () => {
    // Act
    const anonymous = await call(runtime.url, '/api/v1/auth/session');
    const stale = await session('easel.session_token=easel_st_1111111111111111111111111111111111111111111');

    // Assess
    expect({ status: anonymous.status, body: anonymous.body, cookie: anonymous.headers['set-cookie'] }).toEqual({
      status: 200,
      body: { signedIn: false },
      cookie: undefined,
    });
    expect(stale.body).toEqual({ signedIn: false });
    expect(stale.headers['set-cookie']).toMatch(/^easel\.session_token=; Max-Age=0/);
  });
});

describe('invitations and sign-up', () => {
  it('signs an invited address up, lists its invitation and accepts it into a membership with its role', async () => {
    // Prepare
    const invitation = await admin.invite(deps, { organizationId, email: 'eve@example.com', role: 'admin', invitedBy: 'ada@example.com' });

    // Act
    const cookie = await signInWithCode(runtime.url, outbox, 'eve@example.com', { name: 'Eve Invited' });
    const state = await session(cookie);
    const accepted = await call(runtime.url, `/api/v1/auth/invitations/${invitation.invitationId}/accept`, { method: 'POST', headers: { cookie } });
    const twice = await call(runtime.url, `/api/v1/auth/invitations/${invitation.invitationId}/accept`, { method: 'POST', headers: { cookie } });
    const activated = await call(runtime.url, `/api/v1/organizations/${organizationId}/activate`, { method: 'POST', headers: { cookie } });

    // Assess
    expect(state.body).toMatchObject({ signedIn: true, user: { name: 'Eve Invited' }, activeOrganizationId: null });
    expect(state.body.invitations).toEqual([
      {
        id: invitation.invitationId,
        organization: { id: organizationId, name: 'Analytical' },
        role: 'admin',
        status: 'pending',
        invitedBy: 'Ada Lovelace',
        createdAt: invitation.createdAt,
        expiresAt: new Date(invitation.expiresAt * 1000).toISOString(),
      },
    ]);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ organization: { id: organizationId, name: 'Analytical' }, membership: { role: 'admin' } });
    // The same user accepting again finishes nothing new and refuses nothing.
    expect(twice.status).toBe(200);
    expect(activated.body.membership.role).toBe('admin');
    const mine = await call(runtime.url, '/api/v1/auth/invitations', { headers: { cookie } });
    expect(mine.body.invitations.map((item: { status: string }) => item.status)).toEqual(['accepted']);
  });

  it('says an invitation expired or was revoked, and that an unknown one is not found', async () => {
    // Prepare
    await admin.createUser(deps, { email: 'late@example.com', name: 'Late' });
    const revoked = await admin.invite(deps, { organizationId, email: 'late@example.com', role: 'member' });
    await admin.revokeInvitation(deps, { organizationId, invitationId: revoked.invitationId });
    const expired = await admin.invite(deps, { organizationId, email: 'late@example.com', role: 'member' });
    await admin.invite(deps, { organizationId, email: 'someone-else@example.com', role: 'member' });
    const cookie = await signInWithCode(runtime.url, outbox, 'late@example.com');
    // Expire it in place, as time would.
    await db.dynamo.send(
      new UpdateCommand({
        TableName: runtime.env.WORKSPACE_TABLE,
        Key: { pk: `ORG#${organizationId}`, sk: `INVITE#${expired.invitationId}` },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );

    // Act
    const accept = (id: string) => call(runtime.url, `/api/v1/auth/invitations/${id}/accept`, { method: 'POST', headers: { cookie } });
    const [revokedAnswer, expiredAnswer, unknownAnswer] = [await accept(revoked.invitationId), await accept(expired.invitationId), await accept('inv_unknown')];

    // Assess
    expect({ status: revokedAnswer.status, body: revokedAnswer.body, error: revokedAnswer.body.error }).toEqual({
      status: 400,
      body: envelope(400, 'invalid_request'),
      error: 'Invitation revoked',
    });
    expect({ status: expiredAnswer.status, error: expiredAnswer.body.error }).toEqual({ status: 400, error: 'Invitation expired' });
    expect({ status: unknownAnswer.status, body: unknownAnswer.body }).toEqual({ status: 404, body: envelope(404, 'not_found') });
    const listed = await call(runtime.url, '/api/v1/auth/invitations', { headers: { cookie } });
    expect(listed.body.invitations.map((item: { status: string }) => item.status).sort()).toEqual(['expired', 'revoked']);
  });
});

describe('passkeys', () => {
  const origin = () => runtime.url.replace('127.0.0.1', 'localhost');
  const authenticator = () => new SoftAuthenticator({ origin: origin(), rpId: 'localhost' });

  async function register(cookie: string, key: SoftAuthenticator, answerOrigin?: string) {
    const options = await call(runtime.url, '/api/v1/auth/passkeys/options', { method: 'POST', headers: { cookie } });
    return call(runtime.url, '/api/v1/auth/passkeys', {
      body: { response: key.register(options.body, answerOrigin) },
      headers: { cookie, 'user-agent': CHROME },
    });
  }

  async function signIn(key: SoftAuthenticator, answerOrigin?: string) {
    const options = await call(runtime.url, '/api/v1/auth/passkey/options', { method: 'POST' });
    const response = key.authenticate(options.body, answerOrigin);
    return { response, answer: await call(runtime.url, '/api/v1/auth/passkey/verify', { body: { response } }) };
  }

  it('registers several passkeys, signs in with one, lists and removes them', async () => {
    // Prepare
    const cookie = await signInWithCode(runtime.url, outbox, await memberNamed('keys'));
    const [first, second] = [authenticator(), authenticator()];

    // Act
    const registered = await register(cookie, first);
    await register(cookie, second);
    const { answer } = await signIn(first);
    const listed = await call(runtime.url, '/api/v1/auth/passkeys', { headers: { cookie } });
    const removed = await call(runtime.url, `/api/v1/auth/passkeys/${registered.body.id}`, { method: 'DELETE', headers: { cookie } });
    const afterRemoval = await signIn(first);

    // Assess
    expect({ status: registered.status, body: registered.body }).toEqual({
      status: 201,
      body: { id: expect.stringMatching(/^pky_/), name: 'Passkey on Chrome 153 on Linux', createdAt: expect.any(String), lastUsedAt: null, backedUp: false },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      signedIn: true,
      user: { email: 'keys@example.com' },
      session: { method: 'passkey' },
      activeOrganizationId: organizationId,
    });
    expect(sessionCookieOf(answer)).toMatch(/^easel\.session_token=easel_st_/);
    expect(listed.body.passkeys).toHaveLength(2);
    expect(listed.body.passkeys[0].lastUsedAt).toEqual(expect.any(String));
    expect(removed.status).toBe(204);
    expect({ status: afterRemoval.answer.status, body: afterRemoval.answer.body }).toEqual({ status: 401, body: envelope(401, 'unauthorized') });
  });

  it('refuses a replayed answer, an answer made for another site, and another user’s challenge', async () => {
    // Prepare
    const cookie = await signInWithCode(runtime.url, outbox, await memberNamed('replay'));
    const key = authenticator();
    expect((await register(cookie, key)).status).toBe(201);
    const { response } = await signIn(key);

    // Act
    const replayed = await call(runtime.url, '/api/v1/auth/passkey/verify', { body: { response } });
    const elsewhere = await signIn(key, 'https://evil.example');
    await admin.createUser(deps, { email: 'mallory@example.com', name: 'Mallory' });
    const other = await signInWithCode(runtime.url, outbox, 'mallory@example.com');
    const options = await call(runtime.url, '/api/v1/auth/passkeys/options', { method: 'POST', headers: { cookie: other } });
    const stolen = await call(runtime.url, '/api/v1/auth/passkeys', { body: { response: authenticator().register(options.body) }, headers: { cookie } });

    // Assess
    expect({ status: replayed.status, body: replayed.body, error: replayed.body.error }).toEqual({
      status: 400,
      body: envelope(400, 'invalid_request'),
      error: 'Unknown or used challenge',
    });
    expect({ status: elsewhere.answer.status, error: elsewhere.answer.body.error }).toEqual({ status: 400, error: 'Passkey not verified' });
    expect({ status: stolen.status, error: stolen.body.error }).toEqual({ status: 400, error: 'Unknown or used challenge' });
    expect(sessionCookieOf(replayed)).toBeUndefined();
  });
});

describe('the asset list', () => {
  it('lists the workspace’s assets newest first, ready ones with a download URL, in pages', async () => {
    // Prepare
    const org = { organizationId, workspaceId: '', key: workspaceKey };
    const older = await createAsset(runtime.url, org);
    const newer = await createAsset(runtime.url, org);
    const pending = await createAsset(runtime.url, org, 'uploaded');
    const cookie = await signInWithCode(runtime.url, outbox, await memberNamed('lister'));

    // Act
    const first = await call(runtime.url, '/api/v1/assets?limit=2', { headers: { cookie } });
    const second = await call(runtime.url, `/api/v1/assets?limit=2&cursor=${first.body.nextCursor}`, { headers: { cookie } });
    const forged = await call(runtime.url, '/api/v1/assets?cursor=abc', { headers: { cookie } });

    // Assess
    expect(first.body.assets.map((asset: { assetId: string }) => asset.assetId)).toEqual([pending, newer]);
    expect(first.body.assets[0]).toMatchObject({ status: 'pending', downloadUrl: null, downloadExpiresAt: null });
    expect(first.body.assets[1]).toMatchObject({ status: 'ready', fileName: 'fixture.png', downloadUrl: expect.stringMatching(/^http/) });
    expect(second.body.assets.map((asset: { assetId: string }) => asset.assetId)).toEqual([older]);
    expect(second.body.nextCursor).toBeUndefined();
    expect((await fetch(first.body.assets[1].downloadUrl)).status).toBe(200);
    expect({ status: forged.status, body: forged.body }).toEqual({ status: 400, body: envelope(400, 'invalid_request') });
  });
});
