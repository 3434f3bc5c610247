import * as v from 'valibot';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { permissionsOf } from '#shared/identity/permissions.ts';
import {
  activateOrganization,
  entitlementView,
  getBootstrap,
  getCapabilities,
  getOrganization,
  getPermissions,
  listInvitations,
  listMembers,
  listOrganizations,
  requireActive,
} from '#shared/services/shell.ts';
import type { Member, ShellStore } from '#shared/services/shell.ts';
import { BootstrapResponse } from '#shared/schemas/identity.ts';
import type { MembershipRecord, OrganizationRecord, UserRecord } from '#shared/schemas/identity.ts';

const T = '2026-01-01T00:00:00.000Z';
const org = (id: string, overrides: Partial<OrganizationRecord> = {}): OrganizationRecord => ({
  organizationId: id,
  name: id.toUpperCase(),
  workspaceId: `ws_${id}`,
  entitlement: { plan: 'pro', status: 'active', features: [] },
  deletionState: 'active',
  createdAt: T,
  ...overrides,
});
const user = (id: string, name: string): UserRecord => ({ userId: id, email: `${id}@example.com`, name, createdAt: T });
const membership = (organizationId: string, userId: string, role: MembershipRecord['role']): MembershipRecord => ({
  organizationId,
  workspaceId: `ws_${organizationId}`,
  userId,
  role,
  createdAt: T,
});

const workspace = (id: string) => ({
  workspaceId: id,
  organizationId: 'a',
  name: 'A',
  settings: { locale: 'fr-FR', timeZone: 'Europe/Paris', defaultPublishingTime: '09:30', description: '' },
  createdAt: T,
});

/** A store holding two organizations: alice owns a and is a member of b; b is being deleted. */
function fakeStore(): ShellStore {
  const organizations = [org('a'), org('b', { deletionState: 'pending' }), org('c', { deletionState: 'deleted' })];
  const users = [user('alice', 'Alice'), user('bob', 'Bob'), user('carol', 'Carol')];
  const memberships = [
    membership('a', 'alice', 'owner'),
    membership('a', 'bob', 'member'),
    membership('a', 'carol', 'admin'),
    membership('b', 'alice', 'member'),
    membership('c', 'alice', 'owner'),
  ];
  return {
    getUser: vi.fn(async (id) => users.find((item) => item.userId === id)),
    getUsers: vi.fn(async (ids) => users.filter((item) => ids.includes(item.userId))),
    getOrganization: vi.fn(async (id) => organizations.find((item) => item.organizationId === id)),
    getOrganizations: vi.fn(async (ids) => organizations.filter((item) => ids.includes(item.organizationId))),
    getMemberContext: vi.fn(async (organizationId, userId) => ({
      organization: organizations.find((item) => item.organizationId === organizationId),
      membership: memberships.find((item) => item.organizationId === organizationId && item.userId === userId),
    })),
    listMembershipsOfUser: vi.fn(async (id) => memberships.filter((item) => item.userId === id)),
    listMembers: vi.fn(async (id) => memberships.filter((item) => item.organizationId === id)),
    listInvitations: vi.fn(async () => [
      {
        invitationId: 'inv_1',
        organizationId: 'a',
        email: 'dan@example.com',
        role: 'member' as const,
        status: 'pending' as const,
        createdAt: T,
        expiresAt: 1_767_830_400,
      },
    ]),
    getWorkspace: vi.fn(async (id) => workspace(id)),
    getWorkspaceWithSurfaces: vi.fn(async (id) => ({
      workspace: workspace(id),
      surfaces: [{ productSurfaceId: 'ps_1', workspaceId: id, name: 'Web', createdAt: T }],
    })),
    countMembers: vi.fn(async () => 3),
    countPendingInvitations: vi.fn(async () => 1),
    countActiveApiKeys: vi.fn(async () => 2),
    setActiveOrganization: vi.fn(async () => true),
  };
}

const alice: Member = {
  userId: 'alice',
  organizationId: 'a',
  workspaceId: 'ws_a',
  role: 'owner',
  entitlement: { plan: 'pro', status: 'active', features: [] },
};
let store: ShellStore;
beforeEach(() => {
  store = fakeStore();
});

describe('requireActive', () => {
  it('refuses an organization other than the active one with 403, saying how to activate it', () => {
    expect(() => requireActive('b', alice)).toThrow(expect.objectContaining({ status: 403, code: 'forbidden', hint: expect.stringContaining('/activate') }));
    expect(() => requireActive('a', alice)).not.toThrow();
  });

  it.each([
    ['getOrganization', () => getOrganization({ store }, { organizationId: 'b', member: alice })],
    ['listMembers', () => listMembers({ store }, { organizationId: 'b', member: alice })],
    ['listInvitations', () => listInvitations({ store }, { organizationId: 'b', member: alice })],
    ['getPermissions', async () => getPermissions({ organizationId: 'b', member: alice })],
    ['getCapabilities', async () => getCapabilities({ organizationId: 'b', member: alice })],
  ])('guards %s with it', async (_name, call) => {
    await expect(call()).rejects.toMatchObject({ status: 403 });
  });
});

describe('listOrganizations', () => {
  it('lists the user’s organizations by name with the role in each, leaving deleted ones out', async () => {
    const result = await listOrganizations({ store }, { userId: 'alice', activeOrganizationId: 'a' });

    expect(result).toEqual({
      organizations: [
        { id: 'a', name: 'A', workspaceId: 'ws_a', deletionState: 'active', createdAt: T, role: 'owner', active: true },
        { id: 'b', name: 'B', workspaceId: 'ws_b', deletionState: 'pending', createdAt: T, role: 'member', active: false },
      ],
      activeOrganizationId: 'a',
    });
  });

  it('reports no active organization when the session’s one is gone', async () => {
    const result = await listOrganizations({ store }, { userId: 'alice', activeOrganizationId: 'c' });
    expect(result.activeOrganizationId).toBeNull();
  });
});

describe('listMembers', () => {
  it('lists owners, then admins, then members, with their users', async () => {
    const { members } = await listMembers({ store }, { organizationId: 'a', member: alice });

    expect(members.map((member) => [member.name, member.role])).toEqual([
      ['Alice', 'owner'],
      ['Carol', 'admin'],
      ['Bob', 'member'],
    ]);
    expect(members[0]).toEqual({ userId: 'alice', name: 'Alice', email: 'alice@example.com', avatarUrl: null, role: 'owner', joinedAt: T });
  });
});

describe('listInvitations', () => {
  it('gives the expiry as an ISO time', async () => {
    const { invitations } = await listInvitations({ store }, { organizationId: 'a', member: alice });
    expect(invitations).toEqual([
      { id: 'inv_1', email: 'dan@example.com', role: 'member', status: 'pending', invitedBy: null, createdAt: T, expiresAt: '2026-01-08T00:00:00.000Z' },
    ]);
  });
});

describe('entitlementView and getCapabilities', () => {
  it('shows a canceled pro subscription with what free includes', () => {
    expect(entitlementView({ plan: 'pro', status: 'canceled', features: [] })).toEqual({
      plan: 'pro',
      status: 'canceled',
      features: [],
      quotas: { 'api:write:minute': 30, 'shots:month': 100 },
    });
  });

  it('derives the flags from the role and the plan and shows only plan, status and features', () => {
    const result = getCapabilities({
      organizationId: 'a',
      member: { ...alice, role: 'member', entitlement: { plan: 'free', status: 'active', features: [] } },
    });

    expect(result.entitlements).toEqual({ plan: 'free', status: 'active', features: [] });
    expect(result.capabilities).toMatchObject({ canManageAssets: true, canDeleteAssets: false, canViewMembers: false, canManageBilling: false });
  });
});

describe('getBootstrap', () => {
  it('returns every field of the contract for the active organization', async () => {
    const result = await getBootstrap({ store }, { member: alice });

    expect(v.safeParse(BootstrapResponse, result).success).toBe(true);
    expect(result).toMatchObject({
      user: { id: 'alice', name: 'Alice', email: 'alice@example.com', avatarUrl: null },
      organization: { id: 'a', name: 'A', workspaceId: 'ws_a' },
      membership: { role: 'owner', permissions: [...permissionsOf('owner')] },
      workspace: {
        id: 'ws_a',
        settings: { locale: 'fr-FR', timeZone: 'Europe/Paris', defaultPublishingTime: '09:30', description: '' },
        productSurfaces: [{ id: 'ps_1', name: 'Web', description: null }],
      },
      entitlements: { plan: 'pro', status: 'active', features: ['asset:delete', 'release:scheduling'], quotas: { 'api:write:minute': 120 } },
      capabilities: { canDeleteAssets: true, canManageBilling: true },
      counters: { members: 3, pendingInvitations: 1, activeApiKeys: 2, productSurfaces: 1 },
    });
    expect(result.organizations.map((item) => item.id)).toEqual(['a', 'b']);
  });

  it("takes the active organization from the batch of the user's organizations instead of reading it again", async () => {
    await getBootstrap({ store }, { member: alice });

    expect(store.getOrganizations).toHaveBeenCalledTimes(1);
    expect(store.getOrganization).not.toHaveBeenCalled();
  });

  it('reads the active organization itself when the membership index does not list it yet', async () => {
    store.listMembershipsOfUser = vi.fn(async () => [membership('b', 'alice', 'member')]);

    const result = await getBootstrap({ store }, { member: alice });

    expect(store.getOrganization).toHaveBeenCalledWith('a');
    expect(result.organization).toMatchObject({ id: 'a', name: 'A' });
    expect(result.organizations.map((item) => item.id)).toEqual(['b']);
  });

  it('answers 403 when the active organization no longer exists', async () => {
    await expect(getBootstrap({ store }, { member: { ...alice, organizationId: 'gone' } })).rejects.toMatchObject({ status: 403, code: 'forbidden' });
  });
});

describe('activateOrganization', () => {
  const session = { kind: 'session' as const, sessionId: 'ses_1', userId: 'alice', activeOrganizationId: 'a', tokenHash: 'hash' };

  it('switches the session and returns the bootstrap of the new organization', async () => {
    const fresh = {
      ...fakeStore(),
      getOrganization: vi.fn(async (id: string) => org(id)),
      getMemberContext: vi.fn(async () => ({ organization: org('d'), membership: membership('d', 'alice', 'admin') })),
    };

    const result = await activateOrganization({ store: fresh }, { organizationId: 'd', session });

    expect(fresh.setActiveOrganization).toHaveBeenCalledWith('hash', 'd');
    expect(fresh.getMemberContext).toHaveBeenCalledWith('d', 'alice', true);
    expect(result.membership.role).toBe('admin');
  });

  it('shows the organization as its consistent read found it, without reading it again', async () => {
    const fresh = {
      ...fakeStore(),
      getMemberContext: vi.fn(async () => ({ organization: org('a', { name: 'Renamed' }), membership: membership('a', 'alice', 'owner') })),
    };

    const result = await activateOrganization({ store: fresh }, { organizationId: 'a', session });

    expect(result.organization.name).toBe('Renamed');
    expect(fresh.getOrganization).not.toHaveBeenCalled();
  });

  it('writes the switch while it reads the bootstrap, not before', async () => {
    let finishSwitch!: (switched: boolean) => void;
    store.setActiveOrganization = vi.fn(() => new Promise<boolean>((resolve) => (finishSwitch = resolve)));

    const result = activateOrganization({ store }, { organizationId: 'a', session });
    await vi.waitFor(() => expect(store.getUser).toHaveBeenCalled());
    expect(store.setActiveOrganization).toHaveBeenCalledWith('hash', 'a');
    finishSwitch(true);

    await expect(result).resolves.toMatchObject({ organization: { id: 'a' } });
  });

  it('reads the user and their organizations while the membership check is out, one round trip saved', async () => {
    let finishCheck!: () => void;
    const check = store.getMemberContext;
    store.getMemberContext = vi.fn(
      (...args: Parameters<typeof check>) => new Promise<Awaited<ReturnType<typeof check>>>((resolve) => (finishCheck = () => resolve(check(...args)))),
    );

    const result = activateOrganization({ store }, { organizationId: 'a', session });
    await vi.waitFor(() => expect(store.getOrganizations).toHaveBeenCalled());
    expect(store.getUser).toHaveBeenCalledWith('alice');
    // The active organization's own reads wait for the check: they need its workspace.
    expect(store.getWorkspaceWithSurfaces).not.toHaveBeenCalled();
    expect(store.setActiveOrganization).not.toHaveBeenCalled();
    finishCheck();

    await expect(result).resolves.toMatchObject({ organization: { id: 'a' }, user: { id: 'alice' } });
  });

  it('answers a refused activation with 403 even when the early user reads fail, and leaves no rejection unhandled', async () => {
    store.getUser = vi.fn(async () => {
      throw new Error('throttled');
    });
    store.listMembershipsOfUser = vi.fn(async () => {
      throw new Error('throttled');
    });

    await expect(activateOrganization({ store }, { organizationId: 'zzz', session })).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    // Give a stray rejection the turn it would need to surface; vitest fails the run on one.
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('passes on a failing user read once the check has passed', async () => {
    store.getUser = vi.fn(async () => {
      throw new Error('throttled');
    });

    await expect(activateOrganization({ store }, { organizationId: 'a', session })).rejects.toThrow('throttled');
  });

  it('refuses an organization the user is not a member of with 403, without touching the session', async () => {
    await expect(activateOrganization({ store }, { organizationId: 'zzz', session })).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect(store.setActiveOrganization).not.toHaveBeenCalled();
  });

  it.each(['b', 'c'])('refuses organization %s, which is being deleted, with 403', async (organizationId) => {
    await expect(activateOrganization({ store }, { organizationId, session })).rejects.toMatchObject({
      status: 403,
      hint: expect.stringContaining('being deleted'),
    });
    expect(store.setActiveOrganization).not.toHaveBeenCalled();
  });

  it('answers 401 when the session ended before the switch was written', async () => {
    store.setActiveOrganization = vi.fn(async () => false);
    await expect(activateOrganization({ store }, { organizationId: 'a', session })).rejects.toMatchObject({ status: 401 });
  });
});
