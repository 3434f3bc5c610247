/**
 * The demo workspace `npm start` seeds, created once and then left alone. Keys and sessions are
 * stored only as hashes, so every start replaces the demo key and session with fresh ones.
 */
import { AlreadyExistsError } from '#shared/store/identity-items.ts';
import type { IdentityStores } from '#shared/store/identity-stores.ts';
import {
  addMember,
  createOrganization,
  createProductSurface,
  createSession,
  createUser,
  endSessions,
  invite,
  issueApiKey,
  listApiKeys,
  revokeApiKey,
} from '#shared/services/identity-admin.ts';
import type { AdminDeps } from '#shared/services/identity-admin.ts';
import type { Plan } from '#shared/identity/plans.ts';

export const DEMO = {
  organizationId: 'org_demo',
  workspaceId: 'ws_demo',
  name: 'Demo Studio',
  plan: 'pro' as Plan,
  owner: { userId: 'usr_demo_owner', email: 'owner@demo.easel.local', name: 'Dana Owner' },
  member: { userId: 'usr_demo_member', email: 'member@demo.easel.local', name: 'Morgan Member' },
  /** Invited as a member, with no account: signing in with this address accepts the invitation offline. */
  invitee: 'invitee@demo.easel.local',
  surfaces: [
    { productSurfaceId: 'ps_demo_web', name: 'Web editor', description: 'The browser screenshot editor.' },
    { productSurfaceId: 'ps_demo_extension', name: 'Browser extension', description: 'Capture from the toolbar.' },
  ],
  /** Marks what the seed issued, so the next start can retire it. */
  origin: 'seed',
};

export interface DemoCredentials {
  organizationId: string;
  workspaceId: string;
  plan: Plan;
  ownerEmail: string;
  inviteeEmail: string;
  apiKey: string;
  keyId: string;
  sessionToken: string;
  sessionExpiresAt: number;
}

async function ensure(create: () => Promise<unknown>): Promise<boolean> {
  try {
    await create();
    return true;
  } catch (error) {
    if (error instanceof AlreadyExistsError) return false;
    throw error;
  }
}

/** @param options.sessionHours lifetime of the demo session (default a week) */
export async function seedDemo(store: IdentityStores, options: { sessionHours?: number } = {}): Promise<DemoCredentials> {
  const deps: AdminDeps = { store };
  for (const user of [DEMO.owner, DEMO.member]) await ensure(() => createUser(deps, user));
  const created = await ensure(() =>
    createOrganization(deps, {
      organizationId: DEMO.organizationId,
      workspaceId: DEMO.workspaceId,
      name: DEMO.name,
      plan: DEMO.plan,
      settings: { locale: 'en-US', timeZone: 'Europe/Paris', defaultPublishingTime: '09:30', description: 'Demo workspace seeded by npm start.' },
    }),
  );
  await ensure(() => addMember(deps, { organizationId: DEMO.organizationId, user: DEMO.owner.userId, role: 'owner' }));
  await ensure(() => addMember(deps, { organizationId: DEMO.organizationId, user: DEMO.member.userId, role: 'member' }));
  for (const surface of DEMO.surfaces) await ensure(() => createProductSurface(deps, { organizationId: DEMO.organizationId, ...surface }));
  if (created) {
    await invite(deps, { organizationId: DEMO.organizationId, email: DEMO.invitee, role: 'member', invitedBy: DEMO.owner.userId });
  }
  // Invitations seeded before they were indexed by address: sign-in finds them through that index.
  for (const invitation of await store.listInvitations(DEMO.organizationId)) {
    if (invitation.status === 'pending') await store.indexInvitation(invitation);
  }

  for (const key of await listApiKeys(deps, { organizationId: DEMO.organizationId })) {
    if (key.createdBy === DEMO.origin && !key.revokedAt) await revokeApiKey(deps, { organizationId: DEMO.organizationId, keyId: key.keyId });
  }
  await endSessions(deps, { user: DEMO.owner.userId, origin: DEMO.origin });
  const { key, apiKey } = await issueApiKey(deps, { organizationId: DEMO.organizationId, name: 'Demo key (npm start)', createdBy: DEMO.origin });
  const { token, session } = await createSession(deps, {
    user: DEMO.owner.userId,
    organizationId: DEMO.organizationId,
    origin: DEMO.origin,
    hours: options.sessionHours,
  });
  const organization = await store.getOrganization(DEMO.organizationId);
  return {
    organizationId: DEMO.organizationId,
    workspaceId: DEMO.workspaceId,
    plan: organization?.entitlement.plan ?? DEMO.plan,
    ownerEmail: DEMO.owner.email,
    inviteeEmail: DEMO.invitee,
    apiKey: key,
    keyId: apiKey.keyId,
    sessionToken: token,
    sessionExpiresAt: session.expiresAt,
  };
}
