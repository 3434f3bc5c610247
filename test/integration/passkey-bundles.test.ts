/**
 * The passkey functions as `cdk synth` bundles them (esbuild's command line, @simplewebauthn/server
 * from its side-effect-free copy), each run in a process of its own against the embedded DynamoDB:
 * a passkey registered, then used to sign in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '#infra/admin/connection.ts';
import { ROUTES } from '#shared/routes.ts';
import * as admin from '#shared/services/identity-admin.ts';
import { invokeBundled, removeCdkOutdirs, sharedRowAsset } from '../support/cdk.ts';
import { apiEvent } from '../support/event.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';

const ROWS = [ROUTES.passkeyRegistrationOptions, ROUTES.registerPasskey, ROUTES.passkeySignInOptions, ROUTES.signInWithPasskey];
/** A message of tsyringe, which only the attestation formats' certificate code (@peculiar/x509) brings. */
const ATTESTATION_CODE = 'Cannot inject the dependency';

let runtime: TestRuntime;
const assets = new Map<string, string>();

beforeAll(async () => {
  runtime = await startTestRuntime();
  for (const row of ROWS) assets.set(row.operationId, await sharedRowAsset(row));
}, 240_000);

afterAll(async () => {
  removeCdkOutdirs();
  await runtime?.dispose();
});

/** Runs the row's bundled function on a POST of `body`, as Lambda would. */
async function post(row: (typeof ROWS)[number], headers: Record<string, string>, body?: unknown) {
  const env = { ...process.env, ...runtime.env, NODE_OPTIONS: '', LOG_LEVEL: 'silent' };
  const result = await invokeBundled(assets.get(row.operationId)!, apiEvent({ method: 'POST', path: row.path, headers, body }), env);
  return { ...result, body: result.body ? JSON.parse(result.body) : undefined };
}

describe('the passkey functions as the stack bundles them', () => {
  it('register a passkey and sign in with it', async () => {
    // Prepare
    const db = connect(runtime.env);
    await admin.createUser({ store: db.store }, { email: 'bundled@example.com', name: 'Bundled' });
    const { token } = await admin.createSession({ store: db.store }, { user: 'bundled@example.com' });
    db.close();
    const cookie = { cookie: `easel.session_token=${token}` };
    const key = new SoftAuthenticator({ origin: runtime.url.replace('127.0.0.1', 'localhost'), rpId: 'localhost' });

    // Act
    const registration = await post(ROUTES.passkeyRegistrationOptions, cookie);
    const registered = await post(ROUTES.registerPasskey, cookie, { response: key.register(registration.body) });
    const options = await post(ROUTES.passkeySignInOptions, {});
    const signedIn = await post(ROUTES.signInWithPasskey, {}, { response: key.authenticate(options.body) });

    // Assess
    expect({ status: registration.statusCode, rpId: registration.body.rp.id, algorithms: registration.body.pubKeyCredParams }).toEqual({
      status: 200,
      rpId: 'localhost',
      algorithms: [-8, -7, -257].map((alg) => ({ alg, type: 'public-key' })),
    });
    expect({ status: registered.statusCode, id: registered.body.id }).toEqual({ status: 201, id: expect.stringMatching(/^pky_/) });
    expect({ status: options.statusCode, rpId: options.body.rpId, userVerification: options.body.userVerification }).toEqual({
      status: 200,
      rpId: 'localhost',
      userVerification: 'required',
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.cookies).toEqual([expect.stringMatching(/^easel\.session_token=easel_st_\w+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/)]);
    expect(signedIn.body).toMatchObject({ signedIn: true, user: { email: 'bundled@example.com' }, session: { method: 'passkey' } });
    // Nothing but the JSON log lines: no experimental API probed (Node warns of each on stderr).
    expect([registration, registered, options, signedIn].map((answer) => answer.stderr)).toEqual(['', '', '', '']);
  });

  it.each([
    [ROUTES.passkeyRegistrationOptions.operationId, false],
    [ROUTES.registerPasskey.operationId, true],
    [ROUTES.passkeySignInOptions.operationId, false],
    [ROUTES.signInWithPasskey.operationId, false],
  ])('gives %s the attestation formats only if it verifies a registration: %s', (operationId, carried) => {
    // Act
    const bundle = readFileSync(join(assets.get(operationId)!, 'index.mjs'), 'utf8');

    // Assess
    expect(bundle.includes(ATTESTATION_CODE)).toBe(carried);
  });
});
