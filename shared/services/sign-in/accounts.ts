/** A verified address's user: made when invited or sign-up is open (with an organization on free if uninvited); writes are idempotent, so retries finish. */
import { base58, hashSecret, newId } from '#shared/identity/credentials.ts';
import { DEFAULT_SETTINGS } from '#shared/schemas/identity.ts';
import type { InvitationRecord, MembershipRecord, OrganizationRecord, UserRecord, WorkspaceRecord } from '#shared/schemas/identity.ts';
import { AlreadyExistsError } from '#shared/store/identity-items.ts';
import { isPendingAt, type InvitationStore } from '#shared/store/invitations.ts';
import type { MembershipStore } from '#shared/store/memberships.ts';
import type { OrganizationStore } from '#shared/store/organizations.ts';
import type { UserStore } from '#shared/store/users.ts';

export type AccountStore = Pick<UserStore, 'findUserByEmail' | 'claimedUserId' | 'createUser' | 'putUserRecord' | 'getUser'> &
  Pick<InvitationStore, 'listInvitationsOfEmail'> &
  Pick<OrganizationStore, 'ensureOrganization'> &
  Pick<MembershipStore, 'putMembership' | 'listMembershipsOfUser'>;

export interface AccountDeps {
  store: AccountStore;
  allowSignUp: boolean;
  now?: () => Date;
}

async function ignoringExisting(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) throw error;
  }
}

/** Whether the address has an invitation it can still accept; `invitations` when the caller read them already. */
async function isInvited(deps: AccountDeps, email: string, invitations = deps.store.listInvitationsOfEmail(email)): Promise<boolean> {
  const nowSeconds = Math.floor((deps.now?.() ?? new Date()).getTime() / 1000);
  return (await invitations).some((invitation) => isPendingAt(invitation, nowSeconds));
}

/** Whether a code may be sent to the address: it has a user or a pending invitation, or sign-up is open. */
export async function mayReceiveCode(deps: AccountDeps, email: string): Promise<boolean> {
  if (deps.allowSignUp) return true;
  const [user, invited] = await Promise.all([deps.store.findUserByEmail(email), isInvited(deps, email)]);
  return user !== undefined || invited;
}

const nameFrom = (email: string) => email.slice(0, email.lastIndexOf('@')).slice(0, 100) || email;

/** Writes the address's user, under the id its address is claimed for when an earlier creation stopped halfway. */
async function newUser(deps: AccountDeps, email: string, name: string | undefined, claimed: string | undefined): Promise<UserRecord> {
  const record: UserRecord = { userId: claimed ?? newId('usr'), email, name: name ?? nameFrom(email), createdAt: (deps.now?.() ?? new Date()).toISOString() };
  try {
    await (claimed ? deps.store.putUserRecord(record) : deps.store.createUser(record));
    return record;
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) throw error;
    // A concurrent sign-in of the same address wrote it first: its user is read back.
    return (await deps.store.findUserByEmail(email)) ?? record;
  }
}

/** Ids derived from the user's, so a repeated sign-up finds the organization rather than making another. */
function personalIds(userId: string): { organizationId: string; workspaceId: string } {
  const digest = (kind: string) => base58(Buffer.from(hashSecret(`${kind}:${userId}`).slice(0, 32), 'hex'));
  return { organizationId: `org_${digest('personal-organization')}`, workspaceId: `ws_${digest('personal-workspace')}` };
}

async function ensurePersonalOrganization(deps: AccountDeps, user: UserRecord): Promise<string> {
  const { organizationId, workspaceId } = personalIds(user.userId);
  const createdAt = (deps.now?.() ?? new Date()).toISOString();
  const name = `${user.name}’s workspace`.slice(0, 100);
  const organization: OrganizationRecord = {
    organizationId,
    name,
    workspaceId,
    entitlement: { plan: 'free', status: 'active', features: [] },
    deletionState: 'active',
    createdAt,
  };
  const workspace: WorkspaceRecord = { workspaceId, organizationId, name, settings: DEFAULT_SETTINGS, createdAt };
  const membership: MembershipRecord = { organizationId, workspaceId, userId: user.userId, role: 'owner', createdAt };
  await deps.store.ensureOrganization(organization, workspace);
  await ignoringExisting(() => deps.store.putMembership(membership));
  return organizationId;
}

/** The address's user and any organization a sign-up made; undefined when it may not have an account (sign-up closed, no invitation). */
export async function accountFor(
  deps: AccountDeps,
  input: { email: string; name?: string; invitations?: Promise<InvitationRecord[]> },
): Promise<{ user: UserRecord; activeOrganizationId?: string } | undefined> {
  // The user is read as soon as the address's claim names it, beside the invitations.
  const claim = deps.store.claimedUserId(input.email);
  const [claimed, existing, invited] = await Promise.all([
    claim,
    claim.then((userId) => (userId === undefined ? undefined : deps.store.getUser(userId))),
    isInvited(deps, input.email, input.invitations),
  ]);
  if (!existing && !invited && !deps.allowSignUp) return undefined;
  const user = existing ?? (await newUser(deps, input.email, input.name, claimed));
  // Invited people join through their invitation; a sign-up without one gets an organization, once.
  if (invited || !deps.allowSignUp || (await deps.store.listMembershipsOfUser(user.userId)).length > 0) return { user };
  return { user, activeOrganizationId: await ensurePersonalOrganization(deps, user) };
}
