import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FeatureNotEntitledError, ForbiddenError, UnauthorizedError } from '#shared/errors.ts';
import { Authenticator, requireFeature, requirePermission } from '#shared/identity/authenticator.ts';
import type { AuthenticatorOptions } from '#shared/identity/authenticator.ts';
import { generateApiKey, generateSessionToken, hashSecret } from '#shared/identity/credentials.ts';
import type { ApiKeyRecord, MembershipRecord, OrganizationRecord, SessionRecord } from '#shared/schemas/identity.ts';

/** An in-memory stand-in for the identity store that counts its reads. */
function fakeStore() {
  const apiKeys = new Map<string, ApiKeyRecord>();
  const sessions = new Map<string, SessionRecord>();
  const organizations = new Map<string, OrganizationRecord>();
  const memberships = new Map<string, MembershipRecord>();
  const reads = { apiKey: 0, session: 0, member: 0 };
  const store: AuthenticatorOptions['store'] = {
    getApiKey: vi.fn(async (hash: string) => {
      reads.apiKey += 1;
      return apiKeys.get(hash);
    }),
    touchApiKey: vi.fn(async () => undefined),
    getSession: vi.fn(async (hash: string) => {
      reads.session += 1;
      return sessions.get(hash);
    }),
    getMemberContext: vi.fn(async (organizationId: string, userId: string) => {
      reads.member += 1;
      return { organization: organizations.get(organizationId), membership: memberships.get(`${organizationId}/${userId}`) };
    }),
  };
  return { store, apiKeys, sessions, organizations, memberships, reads };
}

const ORG: OrganizationRecord = {
  organizationId: 'org_a',
  name: 'A',
  workspaceId: 'ws_a',
  entitlement: { plan: 'free', status: 'active', features: [] },
  deletionState: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
};

function keyRecord(key: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    keyId: 'key_1',
    keyHash: hashSecret(key),
    organizationId: 'org_a',
    workspaceId: 'ws_a',
    name: 'test',
    scopes: ['artifact:read'],
    entitlement: { plan: 'pro', status: 'active', features: [] },
    createdBy: 'test',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

let clock: number;
let fake: ReturnType<typeof fakeStore>;
let auth: Authenticator;

beforeEach(() => {
  clock = Date.parse('2026-06-01T12:00:00Z');
  fake = fakeStore();
  auth = new Authenticator({ store: fake.store, cacheTtlMs: 10_000, now: () => clock });
});

describe('Authenticator.apiKey', () => {
  it('verifies a key with one read and resolves its organization, plan and scopes', async () => {
    // Prepare
    const key = generateApiKey();
    fake.apiKeys.set(hashSecret(key), keyRecord(key));

    // Act
    const principal = await auth.apiKey(key);

    // Assess
    expect(principal).toEqual({
      kind: 'apiKey',
      keyId: 'key_1',
      organizationId: 'org_a',
      workspaceId: 'ws_a',
      entitlement: { plan: 'pro', status: 'active', features: [] },
      plan: 'pro',
      features: ['asset:delete', 'release:scheduling'],
      permissions: ['artifact:read'],
    });
    expect(fake.reads.apiKey).toBe(1);
    expect(fake.store.getApiKey).toHaveBeenCalledWith(hashSecret(key));
  });

  it('reads nothing for a repeat within the cache TTL, and reads again after it', async () => {
    const key = generateApiKey();
    fake.apiKeys.set(hashSecret(key), keyRecord(key));

    await auth.apiKey(key);
    clock += 9_999;
    await auth.apiKey(key);
    expect(fake.reads.apiKey).toBe(1);

    clock += 1;
    await auth.apiKey(key);
    expect(fake.reads.apiKey).toBe(2);
  });

  it('honours a revocation once the cache TTL has passed', async () => {
    // Prepare: a verified key, then revoked in the table
    const key = generateApiKey();
    fake.apiKeys.set(hashSecret(key), keyRecord(key));
    await auth.apiKey(key);
    fake.apiKeys.set(hashSecret(key), keyRecord(key, { revokedAt: '2026-06-01T12:00:01Z' }));

    // Act + Assess
    clock += 10_000;
    await expect(auth.apiKey(key)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('reads every time when the cache is off', async () => {
    auth = new Authenticator({ store: fake.store, cacheTtlMs: 0, now: () => clock });
    const key = generateApiKey();
    fake.apiKeys.set(hashSecret(key), keyRecord(key));

    await auth.apiKey(key);
    await auth.apiKey(key);

    expect(fake.reads.apiKey).toBe(2);
  });

  it('refuses an unknown key with 401, and remembers it within the TTL', async () => {
    const key = generateApiKey();

    await expect(auth.apiKey(key)).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    await expect(auth.apiKey(key)).rejects.toMatchObject({ status: 401 });
    expect(fake.reads.apiKey).toBe(1);
  });

  it.each(['', 'Bearer x', 'easel_sk_short', 'easel_sk_0000000000000000000000000000000'])('refuses %j without reading the table', async (key) => {
    await expect(auth.apiKey(key)).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    expect(fake.reads.apiKey).toBe(0);
  });

  it('gives unknown and revoked keys the same public answer', async () => {
    const revoked = generateApiKey();
    fake.apiKeys.set(hashSecret(revoked), keyRecord(revoked, { revokedAt: '2026-01-02T00:00:00Z' }));

    const refusal = (key: string) =>
      auth.apiKey(key).then(
        () => expect.unreachable(),
        (error: UnauthorizedError) => error,
      );
    const a = await refusal(generateApiKey());
    const b = await refusal(revoked);

    expect([a.message, a.hint]).toEqual([b.message, b.hint]);
    expect(String(b.cause)).toContain('revoked');
  });

  it('records the last use at most once per interval, without reading and without waiting', async () => {
    auth = new Authenticator({ store: fake.store, cacheTtlMs: 10_000, lastUsedIntervalMs: 5_000, now: () => clock });
    const key = generateApiKey();
    fake.apiKeys.set(hashSecret(key), keyRecord(key));

    await auth.apiKey(key);
    await auth.apiKey(key);
    clock += 5_000;
    await auth.apiKey(key);

    expect(fake.store.touchApiKey).toHaveBeenCalledTimes(2);
    expect(fake.store.touchApiKey).toHaveBeenNthCalledWith(1, hashSecret(key), '2026-06-01T12:00:00.000Z');
    expect(fake.reads.apiKey).toBe(1);
  });

  it('writes no stamp while the stored one is younger than the interval, as when another container just wrote it', async () => {
    // Prepare: the key was stamped 2 s ago; the interval is 5 s.
    auth = new Authenticator({ store: fake.store, cacheTtlMs: 10_000, lastUsedIntervalMs: 5_000, now: () => clock });
    const key = generateApiKey();
    fake.apiKeys.set(hashSecret(key), keyRecord(key, { lastUsedAt: new Date(clock - 2_000).toISOString() }));

    // Act: used at once, just before the stamp is 5 s old, and as it turns 5 s old.
    await auth.apiKey(key);
    clock += 2_999;
    await auth.apiKey(key);
    const whileYoung = vi.mocked(fake.store.touchApiKey).mock.calls.length;
    clock += 1;
    await auth.apiKey(key);

    // Assess
    expect(whileYoung).toBe(0);
    expect(fake.store.touchApiKey).toHaveBeenCalledTimes(1);
    expect(fake.store.touchApiKey).toHaveBeenCalledWith(hashSecret(key), new Date(clock).toISOString());
  });

  it('does not hold the verification up for the stamp, and settle() waits for it', async () => {
    const key = generateApiKey();
    fake.apiKeys.set(hashSecret(key), keyRecord(key));
    let finish!: () => void;
    vi.mocked(fake.store.touchApiKey).mockImplementationOnce(() => new Promise<void>((resolve) => (finish = resolve)));

    await expect(auth.apiKey(key)).resolves.toMatchObject({ kind: 'apiKey' });
    let settled = false;
    const settling = auth.settle().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled).toBe(false);
    finish();

    await settling;
    expect(settled).toBe(true);
  });

  it('settles without failing when the stamp fails', async () => {
    const key = generateApiKey();
    fake.apiKeys.set(hashSecret(key), keyRecord(key));
    vi.mocked(fake.store.touchApiKey).mockRejectedValueOnce(new Error('throttled'));

    await auth.apiKey(key);

    await expect(auth.settle()).resolves.toBeUndefined();
  });

  it('serves the request even when recording the last use fails', async () => {
    const key = generateApiKey();
    fake.apiKeys.set(hashSecret(key), keyRecord(key));
    vi.mocked(fake.store.touchApiKey).mockRejectedValueOnce(new Error('throttled'));

    await expect(auth.apiKey(key)).resolves.toMatchObject({ kind: 'apiKey' });
  });
});

describe('Authenticator.session', () => {
  it('resolves a live session with one read, every time (activation changes it)', async () => {
    const token = generateSessionToken();
    fake.sessions.set(hashSecret(token), {
      sessionId: 'ses_1',
      tokenHash: hashSecret(token),
      userId: 'usr_1',
      activeOrganizationId: 'org_a',
      createdAt: '2026-06-01T00:00:00Z',
      expiresAt: 2_000_000_000,
      origin: 'test',
    });

    const identity = await auth.session(token);
    await auth.session(token);

    expect(identity).toEqual({ kind: 'session', sessionId: 'ses_1', userId: 'usr_1', activeOrganizationId: 'org_a', tokenHash: hashSecret(token) });
    expect(fake.reads.session).toBe(2);
  });

  it('refuses an unknown or expired session (the store reads expired ones as absent) with 401', async () => {
    await expect(auth.session(generateSessionToken())).rejects.toMatchObject({ status: 401, hint: expect.stringContaining('sign in again') });
  });

  it('refuses a malformed token without a read', async () => {
    await expect(auth.session('nope')).rejects.toMatchObject({ status: 401 });
    expect(fake.reads.session).toBe(0);
  });
});

describe('Authenticator.member', () => {
  const identity = { kind: 'session' as const, sessionId: 'ses_1', userId: 'usr_1', activeOrganizationId: 'org_a', tokenHash: 'h' };

  beforeEach(() => {
    fake.organizations.set('org_a', ORG);
    fake.memberships.set('org_a/usr_1', { organizationId: 'org_a', workspaceId: 'ws_a', userId: 'usr_1', role: 'member', createdAt: ORG.createdAt });
  });

  it('resolves the role, its permissions and the plan of the active organization', async () => {
    const principal = await auth.member(identity);

    expect(principal).toMatchObject({
      kind: 'session',
      userId: 'usr_1',
      organizationId: 'org_a',
      workspaceId: 'ws_a',
      role: 'member',
      plan: 'free',
      features: [],
      permissions: expect.arrayContaining(['artifact:read', 'organization:read']),
    });
    expect(principal).not.toHaveProperty('activeOrganizationId');
  });

  it('caches the member context within the TTL', async () => {
    await auth.member(identity);
    await auth.member(identity);
    expect(fake.reads.member).toBe(1);
  });

  it('does not remember that a user is not a member, so one added a moment later gets in', async () => {
    await expect(auth.member({ ...identity, userId: 'usr_2' })).rejects.toBeInstanceOf(ForbiddenError);
    fake.memberships.set('org_a/usr_2', { organizationId: 'org_a', workspaceId: 'ws_a', userId: 'usr_2', role: 'admin', createdAt: ORG.createdAt });

    await expect(auth.member({ ...identity, userId: 'usr_2' })).resolves.toMatchObject({ role: 'admin' });
  });

  it('refuses a session without an active organization with 403 and says how to pick one', async () => {
    await expect(auth.member({ ...identity, activeOrganizationId: undefined })).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
      hint: expect.stringContaining('/activate'),
    });
  });

  it('refuses a user who is not a member of the active organization with 403', async () => {
    await expect(auth.member({ ...identity, userId: 'usr_2' })).rejects.toBeInstanceOf(ForbiddenError);
  });

  it.each(['pending', 'deleted'] as const)('refuses an organization whose deletion state is %s with 403', async (deletionState) => {
    fake.organizations.set('org_a', { ...ORG, deletionState });
    await expect(auth.member(identity)).rejects.toMatchObject({ status: 403, hint: expect.stringContaining('being deleted') });
  });
});

describe('requirePermission and requireFeature', () => {
  const base = { organizationId: 'org_a', workspaceId: 'ws_a', entitlement: ORG.entitlement, plan: 'free' as const, features: [] };

  it('names the missing scope of a key', () => {
    expect(() => requirePermission({ ...base, kind: 'apiKey', keyId: 'k', permissions: ['artifact:read'] }, 'asset:write')).toThrow(
      expect.objectContaining({ status: 403, hint: expect.stringContaining('scope asset:write') }),
    );
  });

  it('names the role that lacks a permission', () => {
    const member = { ...base, kind: 'session' as const, sessionId: 's', userId: 'u', tokenHash: 'h', role: 'member' as const, permissions: [] };
    expect(() => requirePermission(member, 'member:read')).toThrow(expect.objectContaining({ hint: expect.stringContaining('(member)') }));
  });

  it('refuses a feature outside the plan with the entitlement envelope fields', () => {
    try {
      requireFeature({ ...base, kind: 'apiKey', keyId: 'k', permissions: [] }, 'asset:delete');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FeatureNotEntitledError);
      expect(error).toMatchObject({
        status: 403,
        code: 'workspace_feature_not_entitled',
        extra: { currentPlan: 'free', requiredPlan: 'pro', feature: 'asset:delete' },
      });
    }
  });
});
