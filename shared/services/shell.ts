/** The shell operations: what the signed-in editor shows of the user, organizations and active workspace. */
import { ForbiddenError, UnauthorizedError } from '#shared/errors.ts';
import { capabilitiesOf } from '#shared/identity/capabilities.ts';
import { ROLES, permissionsOf } from '#shared/identity/permissions.ts';
import type { Role } from '#shared/identity/permissions.ts';
import { QUOTA_LIST, effectiveFeatures, effectivePlan, quotaLimit } from '#shared/identity/plans.ts';
import type { Entitlement, Quota } from '#shared/identity/plans.ts';
import type { SessionIdentity, SessionPrincipal } from '#shared/identity/principal.ts';
import type * as v from 'valibot';
import type {
  BootstrapResponse,
  CapabilitiesResponse,
  EntitlementView,
  InvitationsResponse,
  MembersResponse,
  OrganizationListItem,
  OrganizationRecord,
  OrganizationView,
  OrganizationsResponse,
  PermissionsResponse,
  UserRecord,
  UserView,
  WorkspaceSettings,
  WorkspaceView,
} from '#shared/schemas/identity.ts';
import type { ApiKeyStore } from '#shared/store/api-keys.ts';
import type { InvitationStore } from '#shared/store/invitations.ts';
import type { MembershipStore } from '#shared/store/memberships.ts';
import type { OrganizationStore } from '#shared/store/organizations.ts';
import type { ProductSurfaceStore } from '#shared/store/product-surfaces.ts';
import type { SessionStore } from '#shared/store/sessions.ts';
import type { UserStore } from '#shared/store/users.ts';

/** The store operations the shell reads (and activation writes), across the identity stores. */
export type ShellStore = Pick<UserStore, 'getUser' | 'getUsers'> &
  Pick<OrganizationStore, 'getOrganization' | 'getOrganizations' | 'getWorkspace'> &
  Pick<MembershipStore, 'getMemberContext' | 'listMembershipsOfUser' | 'listMembers' | 'countMembers'> &
  Pick<InvitationStore, 'listInvitations' | 'countPendingInvitations'> &
  Pick<ProductSurfaceStore, 'getWorkspaceWithSurfaces'> &
  Pick<ApiKeyStore, 'countActiveApiKeys'> &
  Pick<SessionStore, 'setActiveOrganization'>;

export interface ShellDeps<K extends keyof ShellStore = keyof ShellStore> {
  store: Pick<ShellStore, K>;
}

/** The member facts every organization-scoped shell operation starts from (a SessionPrincipal has them). */
export type Member = Pick<SessionPrincipal, 'userId' | 'organizationId' | 'workspaceId' | 'role' | 'entitlement'>;

const ACTIVATE = 'POST /api/v1/organizations/{organizationId}/activate';

/** {organizationId} routes act only on the active organization; anything else is 403, so ids cannot be probed. */
export function requireActive(requestedId: string, member: Pick<Member, 'organizationId'>): void {
  if (requestedId !== member.organizationId) {
    throw new ForbiddenError(`Organization ${requestedId} is not the active organization of this session; activate it first with ${ACTIVATE}.`);
  }
}

export function userView(user: UserRecord): UserView {
  return { id: user.userId, name: user.name, email: user.email, avatarUrl: user.avatarUrl ?? null };
}

/** The identity fields of an organization; its entitlement is shown only through {@link entitlementView}. */
export function organizationView(organization: OrganizationRecord): OrganizationView {
  return {
    id: organization.organizationId,
    name: organization.name,
    workspaceId: organization.workspaceId,
    deletionState: organization.deletionState,
    createdAt: organization.createdAt,
  };
}

/** What the organization's plan allows now, without anything secret. */
export function entitlementView(entitlement: Entitlement): EntitlementView {
  const plan = effectivePlan(entitlement);
  return {
    plan: entitlement.plan,
    status: entitlement.status,
    features: effectiveFeatures(entitlement),
    quotas: Object.fromEntries(QUOTA_LIST.map((quota) => [quota, quotaLimit(plan, quota)])) as Record<Quota, number>,
  };
}

export async function getMe(deps: ShellDeps<'getUser'>, input: { userId: string }): Promise<UserView> {
  return userView(await requireUser(deps, input.userId));
}

/** GET /api/v1/organizations: every organization the user belongs to (deleted ones left out), by name. */
export async function listOrganizations(
  deps: ShellDeps<'listMembershipsOfUser' | 'getOrganizations'>,
  input: { userId: string; activeOrganizationId: string | undefined },
): Promise<v.InferOutput<typeof OrganizationsResponse>> {
  const organizations = organizationList(await organizationRecordsOf(deps, input.userId), input.activeOrganizationId);
  const active = organizations.some((organization) => organization.active) ? input.activeOrganizationId! : null;
  return { organizations, activeOrganizationId: active };
}

export async function getOrganization(deps: ShellDeps<'getOrganization'>, input: { organizationId: string; member: Member }): Promise<OrganizationView> {
  requireActive(input.organizationId, input.member);
  const organization = await deps.store.getOrganization(input.organizationId);
  if (!organization) throw new ForbiddenError(`The active organization no longer exists; activate another one with ${ACTIVATE}.`);
  return organizationView(organization);
}

/** GET …/members: the roster, owners first, then by name. */
export async function listMembers(
  deps: ShellDeps<'listMembers' | 'getUsers'>,
  input: { organizationId: string; member: Member },
): Promise<v.InferOutput<typeof MembersResponse>> {
  requireActive(input.organizationId, input.member);
  const memberships = await deps.store.listMembers(input.organizationId);
  const users = new Map((await deps.store.getUsers(memberships.map((membership) => membership.userId))).map((user) => [user.userId, user]));
  const members = memberships
    .filter((membership) => users.has(membership.userId))
    .map((membership) => {
      const user = users.get(membership.userId)!;
      return {
        userId: user.userId,
        name: user.name,
        email: user.email,
        avatarUrl: user.avatarUrl ?? null,
        role: membership.role,
        joinedAt: membership.createdAt,
      };
    })
    .sort((a, b) => roleRank(a.role) - roleRank(b.role) || a.name.localeCompare(b.name));
  return { members };
}

/** GET …/invitations: invitations that have not expired, newest first. */
export async function listInvitations(
  deps: ShellDeps<'listInvitations'>,
  input: { organizationId: string; member: Member },
): Promise<v.InferOutput<typeof InvitationsResponse>> {
  requireActive(input.organizationId, input.member);
  const invitations = await deps.store.listInvitations(input.organizationId);
  return {
    invitations: invitations.map((invitation) => ({
      id: invitation.invitationId,
      email: invitation.email,
      role: invitation.role,
      status: invitation.status,
      invitedBy: invitation.invitedBy ?? null,
      createdAt: invitation.createdAt,
      expiresAt: new Date(invitation.expiresAt * 1000).toISOString(),
    })),
  };
}

export async function getSettings(deps: ShellDeps<'getWorkspace'>, input: { organizationId: string; member: Member }): Promise<WorkspaceSettings> {
  requireActive(input.organizationId, input.member);
  return (await requireWorkspace(deps, input.member.workspaceId)).settings;
}

export function getPermissions(input: { organizationId: string; member: Member }): v.InferOutput<typeof PermissionsResponse> {
  requireActive(input.organizationId, input.member);
  return { organizationId: input.organizationId, role: input.member.role, permissions: [...permissionsOf(input.member.role)] };
}

export function getCapabilities(input: { organizationId: string; member: Member }): v.InferOutput<typeof CapabilitiesResponse> {
  requireActive(input.organizationId, input.member);
  const { plan, status, features } = entitlementView(input.member.entitlement);
  return {
    organizationId: input.organizationId,
    capabilities: capabilitiesOf(permissionsOf(input.member.role), features),
    entitlements: { plan, status, features },
  };
}

/** GET /api/v1/bootstrap: reads go out together; the organization comes from the user's batch, read again only when the membership index lags. */
export async function getBootstrap(deps: ShellDeps, input: { member: Member }): Promise<BootstrapResponse> {
  return assembleBootstrap(deps, input.member, readUserPart(deps, input.member.userId));
}

/** POST …/activate: a consistent membership check, then the switch written as the bootstrap is read; 401 if the session ended meanwhile. */
export async function activateOrganization(deps: ShellDeps, input: { organizationId: string; session: SessionIdentity }): Promise<BootstrapResponse> {
  const { organizationId, session } = input;
  const userPart = readUserPart(deps, session.userId);
  // Awaited below once the check passes; when it refuses, the outcome of these reads is not wanted.
  userPart.catch(() => undefined);
  const { organization, membership } = await deps.store.getMemberContext(organizationId, session.userId, true);
  // The same answer whether the organization does not exist or the user is not in it.
  if (!organization || !membership) throw new ForbiddenError(`You are not a member of organization ${organizationId}; GET /api/v1/organizations lists yours.`);
  if (organization.deletionState !== 'active') {
    throw new ForbiddenError(`Organization ${organizationId} is being deleted and cannot be activated; choose another from GET /api/v1/organizations.`);
  }
  const member: Member = {
    userId: session.userId,
    organizationId,
    workspaceId: organization.workspaceId,
    role: membership.role,
    entitlement: organization.entitlement,
  };
  const [switched, bootstrap] = await Promise.all([
    deps.store.setActiveOrganization(session.tokenHash, organizationId),
    assembleBootstrap(deps, member, userPart, organization),
  ]);
  if (!switched) throw new UnauthorizedError({ hint: 'The session has ended; sign in again.', cause: 'session expired during activation' });
  return bootstrap;
}

function readUserPart(deps: ShellDeps, userId: string): Promise<[UserRecord, UserOrganizations]> {
  return Promise.all([requireUser(deps, userId), organizationRecordsOf(deps, userId)]);
}

/** `activated` is the record activation just read consistently; without it, the user's batch has it. */
async function assembleBootstrap(
  deps: ShellDeps,
  member: Member,
  userPart: Promise<[UserRecord, UserOrganizations]>,
  activated?: OrganizationRecord,
): Promise<BootstrapResponse> {
  const [[user, userOrganizations], { workspace, surfaces }, members, pendingInvitations, activeApiKeys] = await Promise.all([
    userPart,
    deps.store.getWorkspaceWithSurfaces(member.workspaceId),
    deps.store.countMembers(member.organizationId),
    deps.store.countPendingInvitations(member.organizationId),
    deps.store.countActiveApiKeys(member.organizationId),
  ]);
  const organization =
    activated ??
    userOrganizations.records.find((record) => record.organizationId === member.organizationId) ??
    (await deps.store.getOrganization(member.organizationId));
  if (!organization) throw new ForbiddenError(`The active organization no longer exists; activate another one with ${ACTIVATE}.`);
  if (!workspace) throw missingWorkspace(member.workspaceId);
  const permissions = [...permissionsOf(member.role)];
  const entitlements = entitlementView(member.entitlement);
  const workspaceView: WorkspaceView = {
    id: workspace.workspaceId,
    name: workspace.name,
    settings: workspace.settings,
    productSurfaces: surfaces.map((surface) => ({ id: surface.productSurfaceId, name: surface.name, description: surface.description ?? null })),
  };
  return {
    user: userView(user),
    organization: organizationView(organization),
    organizations: organizationList(userOrganizations, member.organizationId),
    membership: { role: member.role, permissions },
    workspace: workspaceView,
    entitlements,
    capabilities: capabilitiesOf(permissions, entitlements.features),
    counters: { members, pendingInvitations, activeApiKeys, productSurfaces: surfaces.length },
  };
}

export async function requireUser(deps: ShellDeps<'getUser'>, userId: string): Promise<UserRecord> {
  const user = await deps.store.getUser(userId);
  // A session whose user is gone is no session at all.
  if (!user) throw new UnauthorizedError({ hint: 'The session is unknown or has expired; sign in again.', cause: `user ${userId} not found` });
  return user;
}

async function requireWorkspace(deps: ShellDeps<'getWorkspace'>, workspaceId: string) {
  const workspace = await deps.store.getWorkspace(workspaceId);
  if (!workspace) throw missingWorkspace(workspaceId);
  return workspace;
}

/** An organization points at a workspace that is not there: a broken invariant, so a 500. */
function missingWorkspace(workspaceId: string): Error {
  return new Error(`Workspace ${workspaceId} of an organization is missing`);
}

/** The organizations a user belongs to, read in one batch, with the user's role in each. */
interface UserOrganizations {
  records: OrganizationRecord[];
  roles: Map<string, Role>;
}

async function organizationRecordsOf(deps: ShellDeps<'listMembershipsOfUser' | 'getOrganizations'>, userId: string): Promise<UserOrganizations> {
  const memberships = await deps.store.listMembershipsOfUser(userId);
  const roles = new Map(memberships.map((membership) => [membership.organizationId, membership.role]));
  return { records: await deps.store.getOrganizations([...roles.keys()]), roles };
}

function organizationList({ records, roles }: UserOrganizations, activeOrganizationId: string | undefined): OrganizationListItem[] {
  return records
    .filter((organization) => organization.deletionState !== 'deleted')
    .map((organization) => ({
      ...organizationView(organization),
      role: roles.get(organization.organizationId)!,
      active: organization.organizationId === activeOrganizationId,
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}
