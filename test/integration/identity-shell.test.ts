import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { HttpHandler } from '#shared/http/handler.ts';
import type { OperationDoc, RouteDef, RouteRow } from '#shared/route-types.ts';
import { permissionsOf } from '#shared/identity/permissions.ts';
import { entitlementExtension } from '#shared/identity/plans.ts';
import { generateSessionToken, hashSecret, newId } from '#shared/identity/credentials.ts';
import { ROUTES } from '#shared/routes.ts';
import { OPERATION_DOCS } from '#shared/docs/operations.ts';
import type { OperationId } from '#shared/routes.ts';
import * as admin from '#shared/services/identity-admin.ts';
import { keys } from '#shared/store/keys.ts';
import { connect } from '#infra/admin/connection.ts';
import type { Connection } from '#infra/admin/connection.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { testRoute } from '../support/routes.ts';

// Short enough that the revocation test need not wait ten seconds, long enough to be a cache.
const CACHE_TTL_MS = 300;
let EDITOR = '';

let runtime: TestRuntime;
let db: Connection;
let deps: admin.AdminDeps;
const ids = { a: '', b: '', e: '', deleted: '', pending: '', free: '' };
const cookies = { alice: '', bob: '', carol: '', dave: '', daveInA: '', expired: '' };
let apiKey = '';
// Loaded after the runtime has set the environment: the SDK clients read it when first imported.
let route: typeof import('#shared/http/route.ts').route;
let authenticate: typeof import('#shared/wiring/auth.ts').authenticate;

async function session(user: string, organizationId?: string): Promise<string> {
  const { token } = await admin.createSession(deps, { user, organizationId });
  return `easel.session_token=${token}`;
}

beforeAll(async () => {
  process.env.AUTH_CACHE_TTL_MS = String(CACHE_TTL_MS);
  runtime = await startTestRuntime();
  ({ route } = await import('#shared/http/route.ts'));
  ({ authenticate } = await import('#shared/wiring/auth.ts'));
  EDITOR = runtime.env.EDITOR_ORIGINS!.split(',')[0]!;
  db = connect(runtime.env);
  deps = { store: db.store };

  // Prepare: alice owns A (pro) and E, is a member of B; bob is a member and carol an admin of A;
  // dave owns B (free). Two more organizations of alice's are being deleted.
  for (const [email, name] of [
    ['alice@example.com', 'Alice'],
    ['bob@example.com', 'Bob'],
    ['carol@example.com', 'Carol'],
    ['dave@example.com', 'Dave'],
  ]) {
    await admin.createUser(deps, { email: email!, name: name! });
  }
  const org = async (name: string, plan: 'free' | 'pro', owner: string) =>
    (
      await admin.createOrganization(deps, {
        name,
        plan,
        ownerUserId: owner,
        settings: { locale: 'de-DE', timeZone: 'Europe/Berlin', defaultPublishingTime: '08:15', description: `${name} workspace` },
      })
    ).organization.organizationId;
  ids.a = await org('Alpha', 'pro', 'alice@example.com');
  ids.b = await org('Bravo', 'free', 'dave@example.com');
  ids.e = await org('Echo', 'pro', 'alice@example.com');
  ids.deleted = await org('Deleted', 'pro', 'alice@example.com');
  ids.pending = await org('Pending', 'pro', 'alice@example.com');
  ids.free = await org('Free', 'free', 'alice@example.com');
  await admin.addMember(deps, { organizationId: ids.a, user: 'bob@example.com', role: 'member' });
  await admin.addMember(deps, { organizationId: ids.a, user: 'carol@example.com', role: 'admin' });
  await admin.addMember(deps, { organizationId: ids.b, user: 'alice@example.com', role: 'member' });
  await admin.deleteOrganization(deps, { organizationId: ids.deleted, state: 'deleted' });
  await admin.deleteOrganization(deps, { organizationId: ids.pending, state: 'pending' });
  await admin.invite(deps, { organizationId: ids.a, email: 'erin@example.com', role: 'member', invitedBy: 'alice@example.com' });
  await admin.createProductSurface(deps, { organizationId: ids.a, name: 'Web editor' });
  apiKey = (await admin.issueApiKey(deps, { organizationId: ids.a, name: 'integration' })).key;

  cookies.alice = await session('alice@example.com', ids.a);
  cookies.bob = await session('bob@example.com', ids.a);
  cookies.carol = await session('carol@example.com', ids.a);
  cookies.dave = await session('dave@example.com', ids.b);
  // Sessions no sign-in would issue: active in an organization the user is not in, and expired.
  const dave = await admin.resolveUser(deps, 'dave@example.com');
  const alice = await admin.resolveUser(deps, 'alice@example.com');
  for (const [name, userId, activeOrganizationId, expiresAt] of [
    ['daveInA', dave.userId, ids.a, Math.floor(Date.now() / 1000) + 3600],
    ['expired', alice.userId, ids.a, Math.floor(Date.now() / 1000) - 1],
  ] as const) {
    const token = generateSessionToken();
    await db.store.putSession({
      sessionId: newId('ses'),
      tokenHash: hashSecret(token),
      userId,
      activeOrganizationId,
      createdAt: new Date().toISOString(),
      expiresAt,
      origin: 'test',
    });
    cookies[name] = `easel.session_token=${token}`;
  }
});

afterAll(async () => {
  delete process.env.AUTH_CACHE_TTL_MS;
  db?.close();
  await runtime?.dispose();
});

const envelope = (status: number, code: string) => expectedEnvelope(runtime.url, status, code);

const SHELL_ROUTES = (Object.keys(ROUTES) as OperationId[]).filter((id) => ROUTES[id].tag === 'Shell');

/** Calls a shell route over HTTP for organization A (the active one of the fixtures' sessions). */
async function callShell(operationId: OperationId, headers: Record<string, string> = {}, organizationId = ids.a) {
  const row = ROUTES[operationId] as RouteRow;
  const path = row.path.replace('{organizationId}', encodeURIComponent(organizationId));
  const response = await fetch(`${runtime.url}${path}`, { method: row.method, headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('shell operations', () => {
  it.each(SHELL_ROUTES)('answers %s with 200 and the documented fields for a signed-in owner', async (operationId) => {
    // Act
    const { status, body, headers } = await callShell(operationId, { cookie: cookies.alice, origin: EDITOR });

    // Assess
    expect(status).toBe(200);
    expect(headers.get('access-control-allow-origin')).toBe(EDITOR);
    expect(headers.get('access-control-allow-credentials')).toBe('true');
    const schema = (OPERATION_DOCS[operationId] as OperationDoc).responses[200]!.schema!;
    expect(v.safeParse(schema, body).issues).toBeUndefined();
  });

  it('returns the user on /me: id, name, email and avatar', async () => {
    const { body } = await callShell('getMe', { cookie: cookies.alice });
    expect(body).toEqual({ id: expect.stringMatching(/^usr_/), name: 'Alice', email: 'alice@example.com', avatarUrl: null });
  });

  it('bootstraps the active organization with membership, workspace, entitlements, capabilities and counters', async () => {
    const { body } = await callShell('getBootstrap', { cookie: cookies.alice });

    expect(Object.keys(body).sort()).toEqual(['capabilities', 'counters', 'entitlements', 'membership', 'organization', 'organizations', 'user', 'workspace']);
    expect(body.organization).toMatchObject({ id: ids.a, name: 'Alpha', deletionState: 'active' });
    expect(body.membership).toEqual({ role: 'owner', permissions: [...permissionsOf('owner')] });
    expect(body.workspace).toMatchObject({
      settings: { locale: 'de-DE', timeZone: 'Europe/Berlin', defaultPublishingTime: '08:15', description: 'Alpha workspace' },
      productSurfaces: [{ id: expect.stringMatching(/^ps_/), name: 'Web editor', description: null }],
    });
    expect(body.entitlements).toEqual({
      plan: 'pro',
      status: 'active',
      features: ['asset:delete', 'release:scheduling'],
      quotas: { 'api:write:minute': 120, 'shots:month': 2000 },
    });
    expect(body.capabilities).toMatchObject({ canDeleteAssets: true, canManageBilling: true, canUseSso: false });
    expect(body.counters).toEqual({ members: 3, pendingInvitations: 1, activeApiKeys: 1, productSurfaces: 1 });
    expect(body.organizations.map((item: { name: string }) => item.name)).toEqual(['Alpha', 'Bravo', 'Echo', 'Free', 'Pending']);
  });

  it('reads a workspace and its product surfaces in one Query, leaving out whatever else its partition holds', async () => {
    // Prepare: a workspace with two surfaces, and an item of every other kind its partition holds,
    // plus one of a kind a later layout could sort between the surfaces and the workspace.
    const { organization } = await admin.createOrganization(deps, { name: 'Partition', plan: 'pro', ownerUserId: 'alice@example.com' });
    const workspaceId = organization.workspaceId;
    await admin.createProductSurface(deps, { organizationId: organization.organizationId, name: 'Mobile' });
    await admin.createProductSurface(deps, { organizationId: organization.organizationId, name: 'Desktop' });
    const pk = keys.workspace(workspaceId).pk;
    for (const sk of ['ASSET#a1', 'IDEMPOTENCY#release#h', 'RELEASE#r1', 'SOURCEAPP#s1', 'TAG#t1', 'WORKSPACE#later', 'SURFACE']) {
      await db.dynamo.send(new PutCommand({ TableName: db.table, Item: { pk, sk, workspaceId, name: sk } }));
    }

    // Act
    const read = await db.store.getWorkspaceWithSurfaces(workspaceId);
    const empty = await db.store.getWorkspaceWithSurfaces('ws_none');

    // Assess
    expect(read.workspace).toMatchObject({ workspaceId, name: 'Partition' });
    expect(read.surfaces.map((surface) => surface.name)).toEqual(['Desktop', 'Mobile']);
    expect(empty).toEqual({ workspace: undefined, surfaces: [] });
  });

  it('lists the organizations of the user with the role in each and the active one', async () => {
    const { body } = await callShell('listOrganizations', { cookie: cookies.alice });

    expect(body.activeOrganizationId).toBe(ids.a);
    expect(body.organizations.find((item: { id: string }) => item.id === ids.b)).toMatchObject({ role: 'member', active: false });
    expect(body.organizations.find((item: { id: string }) => item.id === ids.a)).toMatchObject({ role: 'owner', active: true });
    expect(body.organizations.map((item: { id: string }) => item.id)).not.toContain(ids.deleted);
  });

  it('lists members with their roles and the pending invitation', async () => {
    const members = (await callShell('listOrganizationMembers', { cookie: cookies.carol })).body;
    const invitations = (await callShell('listOrganizationInvitations', { cookie: cookies.carol })).body;

    expect(members.members.map((member: { name: string; role: string }) => [member.name, member.role])).toEqual([
      ['Alice', 'owner'],
      ['Carol', 'admin'],
      ['Bob', 'member'],
    ]);
    expect(invitations.invitations).toEqual([
      expect.objectContaining({ email: 'erin@example.com', role: 'member', status: 'pending', invitedBy: expect.stringMatching(/^usr_/) }),
    ]);
  });

  it('returns settings, permissions and the safe capability view', async () => {
    expect((await callShell('getOrganizationSettings', { cookie: cookies.bob })).body).toEqual({
      locale: 'de-DE',
      timeZone: 'Europe/Berlin',
      defaultPublishingTime: '08:15',
      description: 'Alpha workspace',
    });
    expect((await callShell('getOrganizationPermissions', { cookie: cookies.bob })).body).toEqual({
      organizationId: ids.a,
      role: 'member',
      permissions: [...permissionsOf('member')],
    });
    const capabilities = (await callShell('getOrganizationCapabilities', { cookie: cookies.bob })).body;
    expect(capabilities.entitlements).toEqual({ plan: 'pro', status: 'active', features: ['asset:delete', 'release:scheduling'] });
    expect(capabilities.capabilities).toMatchObject({ canDeleteAssets: true, canViewMembers: false });
  });
});

describe('shell operations: refusals', () => {
  it.each(SHELL_ROUTES)('answers %s without a session with 401', async (operationId) => {
    const { status, body } = await callShell(operationId);
    expect(status).toBe(401);
    expect(body).toEqual(envelope(401, 'unauthorized'));
  });

  it.each(SHELL_ROUTES)('answers %s with an expired session with 401', async (operationId) => {
    const { status, body } = await callShell(operationId, { cookie: cookies.expired });
    expect(status).toBe(401);
    expect(body).toEqual(envelope(401, 'unauthorized'));
  });

  it.each(SHELL_ROUTES)('answers %s with 403 for an API key, even alongside a valid session', async (operationId) => {
    const alone = await callShell(operationId, { 'x-api-key': apiKey });
    const both = await callShell(operationId, { 'x-api-key': apiKey, cookie: cookies.alice });

    expect([alone.status, both.status]).toEqual([403, 403]);
    expect(both.body).toEqual(envelope(403, 'forbidden'));
  });

  it.each(SHELL_ROUTES.filter((id) => (ROUTES[id] as RouteRow).permission))(
    'answers %s with 403 for a session active in an organization the user is not a member of',
    async (operationId) => {
      const { status, body } = await callShell(operationId, { cookie: cookies.daveInA });
      expect(status).toBe(403);
      expect(body).toEqual(envelope(403, 'forbidden'));
      expect(body.hint).toContain('not a member');
    },
  );

  it.each(SHELL_ROUTES.filter((id) => (ROUTES[id] as RouteRow).path.includes('{organizationId}/')))(
    'answers %s for an organization that is not the active one with 403',
    async (operationId) => {
      // dave is active in B and asks about A, where he is not a member.
      const { status, body } = await callShell(operationId, { cookie: cookies.dave }, ids.a);
      expect(status).toBe(403);
      expect(body).toEqual(envelope(403, 'forbidden'));
    },
  );

  it.each(['listOrganizationMembers', 'listOrganizationInvitations'] as const)(
    'answers %s with 403 for a member without the permission',
    async (operationId) => {
      const { status, body } = await callShell(operationId, { cookie: cookies.bob });
      expect(status).toBe(403);
      expect(body).toEqual(envelope(403, 'forbidden'));
      expect(body.hint).toMatch(/does not grant the permission (member|invitation):read/);
    },
  );
});

describe('activating an organization', () => {
  it('switches the session and returns the refreshed bootstrap', async () => {
    // Prepare
    const cookie = await session('alice@example.com', ids.a);

    // Act
    const activated = await callShell('activateOrganization', { cookie }, ids.e);

    // Assess
    expect(activated.status).toBe(200);
    expect(activated.body.organization).toMatchObject({ id: ids.e, name: 'Echo' });
    expect(activated.body.membership.role).toBe('owner');
    expect((await callShell('listOrganizations', { cookie })).body.activeOrganizationId).toBe(ids.e);
    expect((await callShell('getOrganization', { cookie }, ids.e)).status).toBe(200);
    expect((await callShell('getOrganization', { cookie }, ids.a)).status).toBe(403);
  });

  it('refuses an organization the user is not a member of with 403 and leaves the session as it was', async () => {
    const { status, body } = await callShell('activateOrganization', { cookie: cookies.dave }, ids.a);

    expect(status).toBe(403);
    expect(body).toEqual(envelope(403, 'forbidden'));
    expect((await callShell('listOrganizations', { cookie: cookies.dave })).body.activeOrganizationId).toBe(ids.b);
  });

  it('refuses an organization that does not exist with the same 403', async () => {
    const { status, body } = await callShell('activateOrganization', { cookie: cookies.alice }, 'org_doesnotexist');
    expect(status).toBe(403);
    expect(body.hint).toContain('not a member');
  });

  it.each([
    ['deleted', () => ids.deleted],
    ['pending deletion', () => ids.pending],
  ])('refuses a %s organization with 403', async (_state, organizationId) => {
    const { status, body } = await callShell('activateOrganization', { cookie: cookies.alice }, organizationId());
    expect(status).toBe(403);
    expect(body).toEqual(envelope(403, 'forbidden'));
    expect(body.hint).toContain('being deleted');
  });
});

describe('API keys on the embedded backends', () => {
  // Workspace routes arrive with the next issue; a synthetic row runs the same middleware here.
  const row = (overrides: Partial<RouteDef>): RouteDef =>
    testRoute({
      path: '/api/v1/probe',
      auth: 'apiKey',
      permission: 'artifact:read',
      cors: 'editor',
      access: { tables: { workspace: ['GetItem', 'BatchGetItem'] }, apiKeyStamp: true },
      errors: [401, 403, 503],
      ...overrides,
    });
  let read: HttpHandler;
  let remove: HttpHandler;
  const call = async (handler: HttpHandler, headers: Record<string, string>) => {
    const result = await handler(apiEvent({ path: '/api/v1/probe', headers }), lambdaContext());
    return { status: result.statusCode, body: JSON.parse(result.body ?? 'null') };
  };

  beforeAll(() => {
    read = route(row({ operationId: 'probeRead' }), async ({ principal }) => ({ principal }), { authenticate });
    remove = route(
      row({ operationId: 'probeDelete', method: 'DELETE', permission: 'asset:write', extensions: entitlementExtension('asset:delete') }),
      async () => ({ ok: true }),
      { authenticate },
    );
  });

  it('resolves a key to its organization and has recorded its last use when the response leaves', async () => {
    const { key, apiKey: issued } = await admin.issueApiKey(deps, { organizationId: ids.a, name: 'reader', scopes: ['artifact:read'] });

    const { status, body } = await call(read, { 'x-api-key': key });

    expect(status).toBe(200);
    expect(body.principal).toMatchObject({ kind: 'apiKey', keyId: issued.keyId, organizationId: ids.a, plan: 'pro', permissions: ['artifact:read'] });
    // No waiting: on Lambda nothing runs between a response and the next invocation.
    expect((await db.store.listApiKeys(ids.a)).find((item) => item.keyId === issued.keyId)?.lastUsedAt).toEqual(expect.any(String));
  });

  it('has recorded the last use before an error response leaves too', async () => {
    const { key, apiKey: issued } = await admin.issueApiKey(deps, { organizationId: ids.a, name: 'reader of nothing', scopes: ['artifact:read'] });

    const { status } = await call(remove, { 'x-api-key': key });

    expect(status).toBe(403);
    expect((await db.store.listApiKeys(ids.a)).find((item) => item.keyId === issued.keyId)?.lastUsedAt).toEqual(expect.any(String));
  });

  it('refuses a revoked key once the cache bound has passed', async () => {
    // Prepare: a key verified (and cached) once
    const { key, apiKey: issued } = await admin.issueApiKey(deps, { organizationId: ids.a, name: 'to revoke' });
    expect((await call(read, { 'x-api-key': key })).status).toBe(200);

    // Act
    await admin.revokeApiKey(deps, { organizationId: ids.a, keyId: issued.keyId });
    await wait(CACHE_TTL_MS + 50);

    // Assess
    const { status, body } = await call(read, { 'x-api-key': key });
    expect(status).toBe(401);
    expect(body).toEqual(envelope(401, 'unauthorized'));
  });

  it('refuses the keys of a deleted organization', async () => {
    const { key } = await admin.issueApiKey(deps, { organizationId: ids.e, name: 'doomed' });
    const organization = await admin.createOrganization(deps, { name: 'Doomed', plan: 'pro' });
    const { key: doomed } = await admin.issueApiKey(deps, { organizationId: organization.organization.organizationId, name: 'doomed' });

    await admin.deleteOrganization(deps, { organizationId: organization.organization.organizationId });

    expect((await call(read, { 'x-api-key': doomed })).status).toBe(401);
    expect((await call(read, { 'x-api-key': key })).status).toBe(200);
  });

  it('refuses a key without the scope with 403', async () => {
    const { key } = await admin.issueApiKey(deps, { organizationId: ids.a, name: 'uploader', scopes: ['upload:sign'] });
    const { status, body } = await call(read, { 'x-api-key': key });
    expect(status).toBe(403);
    expect(body).toEqual(envelope(403, 'forbidden'));
  });

  it('refuses a feature above the plan with the entitlement envelope, and allows it after an upgrade within the cache bound', async () => {
    // Prepare
    const { key } = await admin.issueApiKey(deps, { organizationId: ids.free, name: 'free plan' });

    // Act + Assess: free has no asset:delete
    const refused = await call(remove, { 'x-api-key': key });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ ...envelope(403, 'workspace_feature_not_entitled'), currentPlan: 'free', requiredPlan: 'pro', feature: 'asset:delete' });

    // Act + Assess: the plan change reaches the key
    await admin.setPlan(deps, { organizationId: ids.free, plan: 'pro' });
    await wait(CACHE_TTL_MS + 50);
    expect((await call(remove, { 'x-api-key': key })).status).toBe(200);
  });

  it('accepts a session whose role grants the permission, and refuses one whose role does not', async () => {
    const asMember = await call(read, { cookie: cookies.bob });
    expect(asMember.status).toBe(200);
    expect(asMember.body.principal).toMatchObject({ kind: 'session', role: 'member', organizationId: ids.a });

    const sourceWrite = route(row({ operationId: 'probeSource', method: 'POST', permission: 'source:write' }), async () => ({}), { authenticate });
    expect((await call(sourceWrite, { cookie: cookies.bob })).status).toBe(403);
    expect((await call(sourceWrite, { cookie: cookies.carol })).status).toBe(200);
  });

  it('stores the key under its hash only', async () => {
    const { key } = await admin.issueApiKey(deps, { organizationId: ids.a, name: 'hashed' });
    const { Item } = await (await import('#shared/wiring/dynamo.ts')).dynamo.send(
      new GetCommand({ TableName: runtime.env.WORKSPACE_TABLE, Key: keys.apiKey(hashSecret(key)) }),
    );
    expect(Item?.keyHash).toBe(hashSecret(key));
    expect(JSON.stringify(Item)).not.toContain(key);
  });
});
