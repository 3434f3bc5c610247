/** The invitations of the signed-in address: listed with their state, and accepted into a membership. */
import type * as v from 'valibot';
import { InvalidRequestError, NotFoundError } from '#shared/errors.ts';
import { permissionsOf } from '#shared/identity/permissions.ts';
import type { InvitationRecord } from '#shared/schemas/identity.ts';
import type { InvitationAccepted, MyInvitation } from '#shared/schemas/sign-in.ts';
import { organizationView } from '#shared/services/shell.ts';
import { AlreadyExistsError } from '#shared/store/identity-items.ts';
import type { InvitationStore } from '#shared/store/invitations.ts';
import type { MembershipStore } from '#shared/store/memberships.ts';
import type { OrganizationStore } from '#shared/store/organizations.ts';
import type { UserStore } from '#shared/store/users.ts';

export type InvitationReads = Pick<InvitationStore, 'listInvitationsOfEmail'> & Pick<OrganizationStore, 'getOrganizations'> & Pick<UserStore, 'getUsers'>;

export interface InvitationDeps {
  store: InvitationReads & Pick<InvitationStore, 'acceptInvitation'> & Pick<MembershipStore, 'putMembership' | 'getMemberContext'> & Pick<UserStore, 'getUser'>;
  now?: () => Date;
}

function statusOf(invitation: InvitationRecord, nowSeconds: number): MyInvitation['status'] {
  return invitation.status === 'pending' && invitation.expiresAt <= nowSeconds ? 'expired' : invitation.status;
}

/** Every invitation of the address to an organization that still exists, newest first. */
export async function myInvitations(deps: { store: InvitationReads; now?: () => Date }, email: string): Promise<MyInvitation[]> {
  return invitationViews(deps, await deps.store.listInvitationsOfEmail(email));
}

/** The address's invitations, read already, as myInvitations answers them. */
export async function invitationViews(deps: { store: InvitationReads; now?: () => Date }, invitations: InvitationRecord[]): Promise<MyInvitation[]> {
  if (invitations.length === 0) return [];
  const [organizations, inviters] = await Promise.all([
    deps.store.getOrganizations(invitations.map((invitation) => invitation.organizationId)),
    deps.store.getUsers(invitations.flatMap((invitation) => (invitation.invitedBy ? [invitation.invitedBy] : []))),
  ]);
  const byId = new Map(
    organizations.filter((organization) => organization.deletionState === 'active').map((organization) => [organization.organizationId, organization]),
  );
  const names = new Map(inviters.map((user) => [user.userId, user.name]));
  const nowSeconds = Math.floor((deps.now?.() ?? new Date()).getTime() / 1000);
  return invitations
    .filter((invitation) => byId.has(invitation.organizationId))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    .map((invitation) => ({
      id: invitation.invitationId,
      organization: { id: invitation.organizationId, name: byId.get(invitation.organizationId)!.name },
      role: invitation.role,
      status: statusOf(invitation, nowSeconds),
      invitedBy: (invitation.invitedBy && names.get(invitation.invitedBy)) ?? null,
      createdAt: invitation.createdAt,
      expiresAt: new Date(invitation.expiresAt * 1000).toISOString(),
    }));
}

const REFUSED: Record<Exclude<MyInvitation['status'], 'pending'>, [string, string]> = {
  expired: ['Invitation expired', 'This invitation has expired: ask someone in the organization to invite you again.'],
  revoked: ['Invitation revoked', 'This invitation was revoked: ask someone in the organization for a new one.'],
  accepted: ['Invitation already accepted', 'You accepted this invitation already: the organization is in GET /api/v1/organizations.'],
};

/** Marks the invitation, then writes the membership (a retry finishes it); the session's active organization stays until …/activate. */
export async function acceptInvitation(
  deps: InvitationDeps,
  input: { userId: string; invitationId: string },
): Promise<v.InferOutput<typeof InvitationAccepted>> {
  const user = await deps.store.getUser(input.userId);
  const invitations = user ? await deps.store.listInvitationsOfEmail(user.email) : [];
  const invitation = invitations.find((candidate) => candidate.invitationId === input.invitationId);
  if (!user || !invitation)
    throw new NotFoundError('Invitation not found', 'No invitation with this id was sent to your address; GET /api/v1/auth/invitations lists yours.');
  const [organization] = await deps.store.getOrganizations([invitation.organizationId]);
  if (organization?.deletionState !== 'active') {
    throw new InvalidRequestError('Organization unavailable', 'The organization of this invitation is being deleted; it cannot be joined.');
  }
  const retry = invitation.status === 'accepted' && invitation.acceptedBy === user.userId;
  const status = statusOf(invitation, Math.floor((deps.now?.() ?? new Date()).getTime() / 1000));
  if (status !== 'pending' && !retry) throw new InvalidRequestError(...REFUSED[status]);
  if (!(await deps.store.acceptInvitation(invitation.organizationId, invitation.invitationId, user.userId))) {
    // Revoked or expired between the read and the write.
    throw new InvalidRequestError('Invitation no longer pending', 'The invitation was revoked or expired just now; GET /api/v1/auth/invitations shows it.');
  }
  let role = invitation.role;
  try {
    await deps.store.putMembership({
      organizationId: organization.organizationId,
      workspaceId: organization.workspaceId,
      userId: user.userId,
      role,
      createdAt: (deps.now?.() ?? new Date()).toISOString(),
    });
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) throw error;
    // Already a member (by another invitation or an operator): that role stays.
    role = (await deps.store.getMemberContext(organization.organizationId, user.userId, true)).membership?.role ?? role;
  }
  return { organization: organizationView(organization), membership: { role, permissions: [...permissionsOf(role)] } };
}
