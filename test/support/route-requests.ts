/**
 * A valid request for any row of the route table, built from the row itself (path parameters,
 * a body sampled from its schema) and a workspace fixture, so tests that walk the table — the
 * authorization matrix, the fault matrix — cover a new row without being edited. A row the
 * fixture cannot serve (a new kind of path parameter, a schema no generic sample satisfies)
 * fails loudly, naming what to add here.
 */
import * as v from 'valibot';
import { sampleValue } from '#shared/docs/examples.ts';
import { convert } from '#shared/docs/json-schema.ts';
import type { RouteDef } from '#shared/route-types.ts';
import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { generateSessionToken, hashAddress, hashEmailCode, hashSecret, newId } from '#shared/identity/credentials.ts';
import { API_KEY_SCOPES } from '#shared/identity/permissions.ts';
import type { Scope } from '#shared/identity/permissions.ts';
import type { OperationId } from '#shared/routes.ts';
import * as admin from '#shared/services/identity-admin.ts';
import { generateWebhookSecret } from '#shared/identity/webhooks.ts';
import { SourceAppStore } from '#shared/store/source-apps.ts';
import { writeLocalSecret } from '#shared/store/source-secrets.ts';
import { connect } from '#infra/admin/connection.ts';
import type { LocalRuntime } from '#infra/local/runtime.ts';
import { call } from './client.ts';
import type { ClientResponse } from './client.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

/** One organization of the fixture: its ids and an API key holding every scope. */
export interface FixtureOrg {
  organizationId: string;
  workspaceId: string;
  key: string;
}

/**
 * Two pro organizations, A and B, each with a key of every scope; in A an owner, an admin and a
 * member, a revoked key, and sessions for every situation the tests name. Session values are
 * tokens, so tests compose their own Cookie headers.
 */
export interface Fixtures {
  /** `intake`: a source app of A (provider github) whose secret holds `webhookSecret`. */
  a: FixtureOrg & { revokedKey: string; intake: { sourceAppId: string; webhookSecret: string } };
  b: FixtureOrg;
  sessions: {
    /** The owner of A, active in A: every permission. */
    owner: string;
    /** An admin of A, active in A. */
    admin: string;
    /** A member of A, active in A: the fewest permissions. */
    member: string;
    /** A member of B (a user of its own), whose session names A as active although the user is not a member of A. */
    nonMember: string;
    /** The owner of B, active in B. */
    otherOrganization: string;
    /** The owner of A, expired a second ago. */
    expired: string;
  };
  /** A key of A holding every scope except `permission` (every scope when it is not one). */
  keyWithout(permission: string | undefined): Promise<string>;
  /** The internal secret of the maintainers' routes. */
  internalSecret: string;
  /** Fresh for each request of a row that spends or ends what it names (sign-in): see requestFor. */
  signIn: SignInFixtures;
  close(): void;
}

/** What a sign-in row's request needs, made anew each time: a row that succeeds spends it. */
export interface SignInFixtures {
  /** A new session of A's owner (its token and id), for rows that end one. */
  ownerSession(): Promise<{ token: string; sessionId: string }>;
  /** A passkey of A's owner, for removal. */
  ownerPasskey(): Promise<string>;
  /** An invitation of A's owner's address to an organization of its own. */
  ownerInvitation(): Promise<string>;
  /** A code of a new user's address, stored as the mail worker stores one: an address of its own, as the per-address limits count. */
  newUserCode(): Promise<{ email: string; code: string }>;
  /** A registration answer to options asked for with the owner's session. */
  passkeyRegistration(baseUrl: string): Promise<unknown>;
  /** A sign-in answer of a passkey of the owner's, to options asked for now. */
  passkeySignIn(baseUrl: string): Promise<unknown>;
}

/** An address no request used before. */
const freshAddress = () => `fixture-${randomBytes(6).toString('hex')}@example.com`;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000002000000020806000000f478d4fa', 'hex');

/** Creates the fixture in the runtime's workspace table. */
export async function createFixtures(runtime: Pick<LocalRuntime, 'env'>): Promise<Fixtures> {
  const db = connect(runtime.env);
  const deps = { store: db.store };
  const stamp = newId('usr').slice(4, 12).toLowerCase();
  const email = (name: string) => `${name}-${stamp}@example.com`;
  for (const name of ['owner', 'admin', 'member', 'other', 'stranger']) await admin.createUser(deps, { email: email(name), name });
  const organization = async (name: string, owner: string): Promise<FixtureOrg> => {
    const { organization: created } = await admin.createOrganization(deps, { name, plan: 'pro', ownerUserId: email(owner) });
    const { key } = await admin.issueApiKey(deps, { organizationId: created.organizationId, name: 'every scope', scopes: [...API_KEY_SCOPES] });
    return { organizationId: created.organizationId, workspaceId: created.workspaceId, key };
  };
  const a = await organization('Alpha', 'owner');
  const b = await organization('Bravo', 'other');
  await admin.addMember(deps, { organizationId: a.organizationId, user: email('admin'), role: 'admin' });
  await admin.addMember(deps, { organizationId: a.organizationId, user: email('member'), role: 'member' });
  // Its own user, so no row that ends another user's sessions can end it.
  await admin.addMember(deps, { organizationId: b.organizationId, user: email('stranger'), role: 'member' });
  const revoked = await admin.issueApiKey(deps, { organizationId: a.organizationId, name: 'revoked' });
  await admin.revokeApiKey(deps, { key: revoked.key });
  const session = async (name: string, organizationId: string) => (await admin.createSession(deps, { user: email(name), organizationId })).token;
  // Sessions no sign-in would issue: active where the user is no member, and expired.
  const raw = async (name: string, organizationId: string, expiresAt: number) => {
    const token = generateSessionToken();
    const user = await admin.resolveUser(deps, email(name));
    await db.store.putSession({
      sessionId: newId('ses'),
      tokenHash: hashSecret(token),
      userId: user.userId,
      activeOrganizationId: organizationId,
      createdAt: new Date().toISOString(),
      expiresAt,
      origin: 'test',
    });
    return token;
  };
  const now = Math.floor(Date.now() / 1000);
  const sessions = {
    owner: await session('owner', a.organizationId),
    admin: await session('admin', a.organizationId),
    member: await session('member', a.organizationId),
    nonMember: await raw('stranger', a.organizationId, now + 3600),
    otherOrganization: await session('other', b.organizationId),
    expired: await raw('owner', a.organizationId, now - 1),
  };
  const partial = new Map<string, Promise<string>>();
  const keyWithout = (permission: string | undefined) => {
    const scopes = API_KEY_SCOPES.filter((scope) => scope !== permission) as Scope[];
    const cacheKey = scopes.join(',');
    if (!partial.has(cacheKey)) {
      partial.set(
        cacheKey,
        admin.issueApiKey(deps, { organizationId: a.organizationId, name: `without ${permission}`, scopes }).then((issued) => issued.key),
      );
    }
    return partial.get(cacheKey)!;
  };
  const signIn = signInFixtures(db, email('owner'), sessions.owner);
  const intake = await intakeApp(db, runtime.env, a, stamp);
  return {
    a: { ...a, revokedKey: revoked.key, intake },
    b,
    sessions,
    keyWithout,
    internalSecret: runtime.env.INTERNAL_SECRET!,
    signIn,
    close: () => db.close(),
  };
}

/** A source app of the organization for GitHub's webhooks, its secret in the runtime's local store. */
async function intakeApp(db: ReturnType<typeof connect>, env: Record<string, string>, org: FixtureOrg, stamp: string) {
  const webhookSecret = generateWebhookSecret();
  const secretReference = `fixture-intake-${stamp}`;
  await writeLocalSecret(env.LOCAL_SECRETS_DIR!, secretReference, JSON.stringify({ webhookSecret }));
  const app = {
    id: randomUUID(),
    name: 'Fixture intake',
    provider: 'github',
    allowedHosts: ['https://app.example.com'],
    secretReference,
    createdAt: new Date().toISOString(),
  };
  await new SourceAppStore({ dynamo: db.dynamo, table: db.table }).create({ workspaceId: org.workspaceId, organizationId: org.organizationId }, app);
  return { sourceAppId: app.id, webhookSecret };
}

/** GitHub's X-Hub-Signature-256 of a body as `call()` sends it. */
export function githubSignature(secret: string, body: unknown): string {
  return `sha256=${createHmac('sha256', secret)
    .update(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body))
    .digest('hex')}`;
}

/** The owner's sign-in fixtures, over the runtime's table and its HTTP API. */
function signInFixtures(db: ReturnType<typeof connect>, ownerEmail: string, ownerToken: string): SignInFixtures {
  const deps = { store: db.store };
  const cookie = { cookie: `easel.session_token=${ownerToken}` };
  const passkey = (baseUrl: string) => new SoftAuthenticator({ origin: baseUrl.replace('127.0.0.1', 'localhost'), rpId: 'localhost' });
  let signingKey: Promise<SoftAuthenticator> | undefined;
  const register = async (baseUrl: string, key: SoftAuthenticator) => {
    const options = await json(call(baseUrl, '/api/v1/auth/passkeys/options', { method: 'POST', headers: cookie }), 200, 'passkey options');
    return key.register(options.body);
  };
  return {
    ownerSession: async () => {
      const { token, session } = await admin.createSession(deps, { user: ownerEmail });
      return { token, sessionId: session.sessionId };
    },
    ownerPasskey: async () => {
      const owner = await admin.resolveUser(deps, ownerEmail);
      const passkeyId = newId('pky');
      await db.store.putPasskey({
        passkeyId,
        credentialId: randomBytes(16).toString('base64url'),
        userId: owner.userId,
        publicKey: 'AA',
        counter: 0,
        deviceType: 'singleDevice',
        backedUp: false,
        name: 'fixture',
        createdAt: new Date().toISOString(),
      });
      return passkeyId;
    },
    ownerInvitation: async () => {
      const { organization } = await admin.createOrganization(deps, { name: 'Inviting', plan: 'free' });
      return (await admin.invite(deps, { organizationId: organization.organizationId, email: ownerEmail, role: 'member' })).invitationId;
    },
    newUserCode: async () => {
      const email = freshAddress();
      await admin.createUser(deps, { email, name: 'Code fixture' });
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const addressHash = hashAddress(email);
      const expiresAt = Math.floor(Date.now() / 1000) + 600;
      await db.store.putEmailCode({ addressHash, codeHash: hashEmailCode(addressHash, code), createdAt: new Date().toISOString(), expiresAt });
      return { email, code };
    },
    passkeyRegistration: async (baseUrl) => ({ response: await register(baseUrl, passkey(baseUrl)) }),
    passkeySignIn: async (baseUrl) => {
      signingKey ??= (async () => {
        const key = passkey(baseUrl);
        await json(call(baseUrl, '/api/v1/auth/passkeys', { body: { response: await register(baseUrl, key) }, headers: cookie }), 201, 'passkey registration');
        return key;
      })();
      const key = await signingKey;
      const options = await json(call(baseUrl, '/api/v1/auth/passkey/options', { method: 'POST' }), 200, 'sign-in options');
      return { response: key.authenticate(options.body) };
    },
  };
}

/** A request as the tests send it; `headers` are the row's own (a session it ends), under the caller's. */
export interface RouteRequest {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Bodies a generic sample of the schema cannot produce (a rule across fields); the sample of
 * every other row is checked against its schema before it is used.
 */
const BODIES: Partial<Record<OperationId, unknown>> = {
  purgeCache: { url: 'https://example.com/' },
};

/** What an asset must be for the row to succeed on it; a ready asset unless named here. */
const ASSET_STATE: Partial<Record<OperationId, 'uploaded' | 'ready'>> = {
  completeAssetUpload: 'uploaded',
};

async function json(response: Promise<ClientResponse>, expected: number, what: string): Promise<ClientResponse> {
  const answer = await response;
  if (answer.status !== expected) throw new Error(`fixture: ${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

/** An asset of the organization: uploaded and completed (ready), or only uploaded. */
export async function createAsset(baseUrl: string, org: FixtureOrg, state: 'uploaded' | 'ready' = 'ready'): Promise<string> {
  const headers = { 'x-api-key': org.key };
  const created = await json(
    call(baseUrl, '/api/v1/assets/upload-url', { method: 'POST', headers, body: { bytes: PNG.length, contentType: 'image/png', fileName: 'fixture.png' } }),
    201,
    'upload-url',
  );
  const { 'Content-Length': _length, ...uploadHeaders } = created.body.headers as Record<string, string>;
  const put = await fetch(created.body.uploadUrl, { method: 'PUT', headers: uploadHeaders, body: PNG });
  if (put.status !== 200) throw new Error(`fixture: upload answered ${put.status}`);
  if (state === 'ready') await json(call(baseUrl, `/api/v1/assets/${created.body.assetId}/complete`, { method: 'POST', headers }), 200, 'complete');
  return created.body.assetId as string;
}

/** A release of the organization, with a source URL its shots default to (no page answers there: the shot fails, which no test here waits for). */
export async function createRelease(baseUrl: string, org: FixtureOrg): Promise<string> {
  const body = { title: 'Fixture', benefitStatement: 'For the route table', sourceUrls: ['https://example.com/'] };
  const created = await json(call(baseUrl, '/api/v1/releases', { method: 'POST', headers: { 'x-api-key': org.key }, body }), 201, 'release');
  return created.body.id as string;
}

/** The row's body: its override, or a sample of its schema that the schema accepts. */
function bodyFor(row: RouteDef & { operationId: OperationId }): unknown {
  if (!row.body || row.body.optional) return undefined;
  if (row.operationId in BODIES) return BODIES[row.operationId];
  const { schema, defs } = convert(row.body.schema);
  const sample = sampleValue(schema, defs, 'body');
  const parsed = v.safeParse(row.body.schema, sample);
  if (!parsed.success) {
    throw new Error(`No valid sample body for ${row.operationId} (${parsed.issues[0].message}): add one to BODIES in test/support/route-requests.ts`);
  }
  return sample;
}

/**
 * A request the row answers with success when sent with A's credentials: path parameters filled
 * from the fixture (a fresh asset of A for each `{assetId}`), the body sampled from the schema
 * unless `bodies` gives one (a capture target on a local page, say).
 */
export async function requestFor(
  baseUrl: string,
  fixtures: Fixtures,
  row: RouteDef & { operationId: OperationId },
  bodies: Partial<Record<OperationId, unknown>> = {},
): Promise<RouteRequest> {
  let path = row.path;
  for (const [, name] of row.path.matchAll(/\{([^}]+)\}/g)) {
    let value: string;
    if (name === 'organizationId') value = fixtures.a.organizationId;
    else if (name === 'assetId') value = await createAsset(baseUrl, fixtures.a, ASSET_STATE[row.operationId] ?? 'ready');
    else if (name === 'sessionId') value = (await fixtures.signIn.ownerSession()).sessionId;
    else if (name === 'passkeyId') value = await fixtures.signIn.ownerPasskey();
    else if (name === 'invitationId') value = await fixtures.signIn.ownerInvitation();
    else if (name === 'releaseId') value = await createRelease(baseUrl, fixtures.a);
    else if (name === 'sourceAppId') value = fixtures.a.intake.sourceAppId;
    else throw new Error(`No fixture for {${name}} of ${row.operationId}: add one to requestFor in test/support/route-requests.ts`);
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  const prepared = await PREPARED[row.operationId]?.(fixtures, baseUrl);
  return { method: row.method, path, body: row.operationId in bodies ? bodies[row.operationId] : (prepared?.body ?? bodyFor(row)), headers: prepared?.headers };
}

/** Rows whose success spends what the request carries: a code, a challenge, a session. */
const PREPARED: Partial<Record<OperationId, (fixtures: Fixtures, baseUrl: string) => Promise<Pick<RouteRequest, 'body' | 'headers'>>>> = {
  // An address of its own each time: 5 codes and 10 tries an hour per address.
  sendEmailCode: async () => ({ body: { email: freshAddress() } }),
  verifyEmailCode: async (fx) => ({ body: await fx.signIn.newUserCode() }),
  registerPasskey: async (fx, baseUrl) => ({ body: await fx.signIn.passkeyRegistration(baseUrl) }),
  signInWithPasskey: async (fx, baseUrl) => ({ body: await fx.signIn.passkeySignIn(baseUrl) }),
  // A session of its own: signing out ends the one it is sent.
  signOut: async (fx) => ({ headers: { cookie: `easel.session_token=${(await fx.signIn.ownerSession()).token}` } }),
  getSession: async (fx) => ({ headers: { cookie: `easel.session_token=${(await fx.signIn.ownerSession()).token}` } }),
  // GitHub's ping, a delivery of its own each time; signed by whoever sends it (credentialsFor).
  takeInRelease: async () => ({
    body: { zen: 'Keep it logically awesome.', hook_id: 1 },
    headers: { 'x-github-event': 'ping', 'x-github-delivery': randomUUID() },
  }),
};

/**
 * Whether the row's success spends what its request carries (a code, a challenge, a session, the
 * passkey or session it removes): each call then needs a request of its own.
 */
export const spendsItsRequest = (row: Pick<RouteDef, 'path'> & { operationId: string }): boolean =>
  row.operationId in PREPARED || /\{(sessionId|passkeyId)\}/.test(row.path);

/** The credentials that make a row's request succeed for organization A (a webhook's signs the request's body). */
export function credentialsFor(fixtures: Fixtures, row: RouteDef, request?: Pick<RouteRequest, 'body'>): Record<string, string> {
  switch (row.auth) {
    case 'webhook':
      return { 'x-hub-signature-256': githubSignature(fixtures.a.intake.webhookSecret, request?.body ?? '') };
    case 'apiKey':
      return { 'x-api-key': fixtures.a.key };
    case 'session':
      return { cookie: `easel.session_token=${fixtures.sessions.owner}` };
    case 'internal':
      return { 'x-easel-internal-secret': fixtures.internalSecret };
    default:
      return {};
  }
}

/** Sends a row's request with the given headers. */
export function send(baseUrl: string, request: RouteRequest, headers: Record<string, string>, from?: string): Promise<ClientResponse> {
  return call(baseUrl, request.path, { method: request.method, body: request.body, headers: { ...request.headers, ...headers }, from });
}

/** The 2xx statuses a row documents. */
export function successStatuses(row: RouteDef): number[] {
  return Object.keys(row.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 300);
}
