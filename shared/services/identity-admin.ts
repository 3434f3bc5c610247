/** Identity administration for the admin command line and demo seed; secrets are returned once, by the call that makes them, stored hashed. */
import { isDeepStrictEqual } from 'node:util';
import * as v from 'valibot';
import { InvalidRequestError, NotFoundError } from '#shared/errors.ts';
import { API_KEY_SCOPES, RoleSchema, ScopeSchema } from '#shared/identity/permissions.ts';
import type { Role, Scope } from '#shared/identity/permissions.ts';
import { EntitlementStatusSchema, FeatureSchema, PlanSchema } from '#shared/identity/plans.ts';
import type { Entitlement, EntitlementStatus, Feature, Plan } from '#shared/identity/plans.ts';
import { generateApiKey, generateSessionToken, hashSecret, newId } from '#shared/identity/credentials.ts';
import { DEFAULT_SETTINGS, WorkspaceSettings } from '#shared/schemas/identity.ts';
import type {
  ApiKeyRecord,
  InvitationRecord,
  MembershipRecord,
  OrganizationRecord,
  ProductSurfaceRecord,
  SessionRecord,
  UserRecord,
  WorkspaceRecord,
} from '#shared/schemas/identity.ts';
import type { IdentityStores } from '#shared/store/identity-stores.ts';

export interface AdminDeps {
  store: IdentityStores;
  now?: () => Date;
}

/** Default lifetime of a session created by the admin command line or the demo seed. */
export const DEFAULT_SESSION_HOURS = 24 * 7;
export const DEFAULT_INVITATION_DAYS = 7;

const Name = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters'));
const Email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email('must be an e-mail address'), v.maxLength(254));

function check<S extends v.GenericSchema>(schema: S, value: unknown, field: string): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (!result.success) throw new InvalidRequestError(`Invalid ${field}`, `${field}: ${result.issues[0].message}`);
  return result.output;
}

const nowOf = (deps: AdminDeps) => deps.now?.() ?? new Date();

/** A user by id (`usr_…`) or e-mail address. */
export async function resolveUser(deps: AdminDeps, reference: string): Promise<UserRecord> {
  const user = reference.includes('@') ? await deps.store.findUserByEmail(reference) : await deps.store.getUser(reference);
  if (!user) throw new NotFoundError('User not found', `No user ${reference}; create one with create-user.`);
  return user;
}

async function requireOrganization(deps: AdminDeps, organizationId: string): Promise<OrganizationRecord> {
  const organization = await deps.store.getOrganization(organizationId);
  if (!organization) throw new NotFoundError('Organization not found', `No organization ${organizationId}.`);
  return organization;
}

/** Creates a user; 409 when another user has the e-mail address (compared case-insensitively). */
export async function createUser(deps: AdminDeps, input: { email: string; name: string; avatarUrl?: string; userId?: string }): Promise<UserRecord> {
  const record: UserRecord = {
    userId: input.userId ?? newId('usr'),
    email: check(Email, input.email, 'email'),
    name: check(Name, input.name, 'name'),
    createdAt: nowOf(deps).toISOString(),
  };
  if (input.avatarUrl !== undefined) record.avatarUrl = check(v.pipe(v.string(), v.url('must be a URL')), input.avatarUrl, 'avatarUrl');
  await deps.store.createUser(record);
  return record;
}

export interface CreateOrganizationInput {
  name: string;
  plan: Plan;
  status?: EntitlementStatus;
  /** Features granted on top of the plan. */
  features?: Feature[];
  ownerUserId?: string;
  settings?: Partial<WorkspaceSettings>;
  /** Fixed ids (the demo seed); generated otherwise. */
  organizationId?: string;
  workspaceId?: string;
}

export async function createOrganization(
  deps: AdminDeps,
  input: CreateOrganizationInput,
): Promise<{ organization: OrganizationRecord; workspace: WorkspaceRecord; membership?: MembershipRecord }> {
  const createdAt = nowOf(deps).toISOString();
  const name = check(Name, input.name, 'name');
  const entitlement: Entitlement = {
    plan: check(PlanSchema, input.plan, 'plan'),
    status: check(EntitlementStatusSchema, input.status ?? 'active', 'status'),
    features: check(v.array(FeatureSchema), input.features ?? [], 'features'),
  };
  const organizationId = input.organizationId ?? newId('org');
  const workspaceId = input.workspaceId ?? newId('ws');
  const workspace: WorkspaceRecord = {
    workspaceId,
    organizationId,
    name,
    settings: check(WorkspaceSettings, { ...DEFAULT_SETTINGS, ...input.settings }, 'settings'),
    createdAt,
  };
  const organization: OrganizationRecord = { organizationId, name, workspaceId, entitlement, deletionState: 'active', createdAt };
  const owner = input.ownerUserId ? await resolveUser(deps, input.ownerUserId) : undefined;
  await deps.store.createOrganization(organization, workspace);
  if (!owner) return { organization, workspace };
  const membership = await addMember(deps, { organizationId, user: owner.userId, role: 'owner' });
  return { organization, workspace, membership };
}

/** Adds a user (id or e-mail) to an organization with a role; 409 when already a member. */
export async function addMember(deps: AdminDeps, input: { organizationId: string; user: string; role: Role }): Promise<MembershipRecord> {
  const organization = await requireOrganization(deps, input.organizationId);
  const user = await resolveUser(deps, input.user);
  const record: MembershipRecord = {
    organizationId: organization.organizationId,
    workspaceId: organization.workspaceId,
    userId: user.userId,
    role: check(RoleSchema, input.role, 'role'),
    createdAt: nowOf(deps).toISOString(),
  };
  await deps.store.putMembership(record);
  return record;
}

export async function invite(
  deps: AdminDeps,
  input: { organizationId: string; email: string; role: Role; invitedBy?: string; days?: number },
): Promise<InvitationRecord> {
  await requireOrganization(deps, input.organizationId);
  const days = check(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(90)), input.days ?? DEFAULT_INVITATION_DAYS, 'days');
  const now = nowOf(deps);
  const record: InvitationRecord = {
    invitationId: newId('inv'),
    organizationId: input.organizationId,
    email: check(Email, input.email, 'email'),
    role: check(RoleSchema, input.role, 'role'),
    status: 'pending',
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + days * 86_400,
  };
  if (input.invitedBy) record.invitedBy = (await resolveUser(deps, input.invitedBy)).userId;
  await deps.store.putInvitation(record);
  return record;
}

/** Revokes a pending invitation: signing in with its address no longer offers it. */
export async function revokeInvitation(deps: AdminDeps, input: { organizationId: string; invitationId: string }): Promise<void> {
  await requireOrganization(deps, input.organizationId);
  if (!(await deps.store.revokeInvitation(input.organizationId, input.invitationId))) {
    throw new NotFoundError('No pending invitation', `Organization ${input.organizationId} has no pending invitation ${input.invitationId}.`);
  }
}

/** Files each invitation missing from the by-address index sign-in reads; answers those it filed (none when run again). */
export async function indexInvitations(deps: AdminDeps): Promise<InvitationRecord[]> {
  const unindexed = await deps.store.listUnindexedInvitations();
  for (const invitation of unindexed) await deps.store.indexInvitation(invitation);
  return unindexed;
}

/** An API key as listed: everything but the hash. */
export type ApiKeyView = Omit<ApiKeyRecord, 'keyHash' | 'entitlement'>;

function keyView(record: ApiKeyRecord): ApiKeyView {
  const { keyHash: _hash, entitlement: _entitlement, ...view } = record;
  return view;
}

/** Issues a key. The returned `key` is the only time the secret exists outside the caller. */
export async function issueApiKey(
  deps: AdminDeps,
  input: { organizationId: string; name: string; scopes?: readonly Scope[]; createdBy?: string },
): Promise<{ key: string; apiKey: ApiKeyView }> {
  const organization = await requireOrganization(deps, input.organizationId);
  if (organization.deletionState !== 'active')
    throw new InvalidRequestError('Organization is being deleted', 'Keys can only be issued for an active organization.');
  const scopes = check(v.pipe(v.array(ScopeSchema), v.minLength(1, 'name at least one scope')), [...new Set(input.scopes ?? API_KEY_SCOPES)], 'scopes');
  const key = generateApiKey();
  const record: ApiKeyRecord = {
    keyId: newId('key'),
    keyHash: hashSecret(key),
    organizationId: organization.organizationId,
    workspaceId: organization.workspaceId,
    name: check(Name, input.name, 'name'),
    scopes,
    entitlement: organization.entitlement,
    createdBy: input.createdBy ?? 'admin-cli',
    createdAt: nowOf(deps).toISOString(),
  };
  await deps.store.putApiKey(record);
  // A plan change or deletion that ran while the key was being written may have found its
  // reference but not the key yet: read the organization again and catch up.
  const current = await deps.store.getOrganization(organization.organizationId, true);
  if (current && current.deletionState !== 'active') await deps.store.revokeApiKey(record.keyHash, nowOf(deps).toISOString());
  else if (current && !isDeepStrictEqual(current.entitlement, record.entitlement)) {
    await deps.store.copyEntitlementToKey(record.keyHash, current.entitlement);
  }
  return { key, apiKey: keyView(record) };
}

export async function listApiKeys(deps: AdminDeps, input: { organizationId: string }): Promise<ApiKeyView[]> {
  return (await deps.store.listApiKeys(input.organizationId)).map(keyView);
}

/** Revokes a key named by its id (within an organization) or by the secret itself. */
export async function revokeApiKey(deps: AdminDeps, input: { organizationId: string; keyId: string } | { key: string }): Promise<ApiKeyView> {
  const record =
    'key' in input
      ? await deps.store.getApiKey(hashSecret(input.key))
      : (await deps.store.listApiKeys(input.organizationId)).find((candidate) => candidate.keyId === input.keyId);
  if (!record) throw new NotFoundError('API key not found', 'list-keys --org <organizationId> shows the ids of the keys.');
  const at = nowOf(deps).toISOString();
  await deps.store.revokeApiKey(record.keyHash, at);
  return keyView({ ...record, revokedAt: record.revokedAt ?? at });
}

/** A session active in the given (else the first) organization; `token` is the cookie value, stored hashed. */
export async function createSession(
  deps: AdminDeps,
  input: { user: string; organizationId?: string; hours?: number; origin?: string },
): Promise<{ token: string; session: Omit<SessionRecord, 'tokenHash'> }> {
  const user = await resolveUser(deps, input.user);
  const hours = check(v.pipe(v.number(), v.minValue(0.001), v.maxValue(24 * 90)), input.hours ?? DEFAULT_SESSION_HOURS, 'hours');
  let activeOrganizationId = input.organizationId;
  if (activeOrganizationId) {
    const { membership } = await deps.store.getMemberContext(activeOrganizationId, user.userId, true);
    if (!membership) throw new InvalidRequestError('Not a member', `${user.email} is not a member of ${activeOrganizationId}; add-member first.`);
  } else {
    activeOrganizationId = (await deps.store.listMembershipsOfUser(user.userId))[0]?.organizationId;
  }
  const now = nowOf(deps);
  const token = generateSessionToken();
  const record: SessionRecord = {
    sessionId: newId('ses'),
    tokenHash: hashSecret(token),
    userId: user.userId,
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000 + hours * 3600),
    origin: input.origin ?? 'admin-cli',
  };
  if (activeOrganizationId) record.activeOrganizationId = activeOrganizationId;
  await deps.store.putSession(record);
  const { tokenHash: _hash, ...session } = record;
  return { token, session };
}

/** Ends every live session of a user that the given origin created (all of them without an origin). */
export async function endSessions(deps: AdminDeps, input: { user: string; origin?: string }): Promise<number> {
  const user = await resolveUser(deps, input.user);
  let ended = 0;
  for (const session of await deps.store.listSessionsOfUser(user.userId)) {
    if (input.origin !== undefined && session.origin !== input.origin) continue;
    if (await deps.store.endSession(session.tokenHash)) ended += 1;
  }
  return ended;
}

/** Changes the plan or billing status; the organization's keys carry the change within the cache bound. */
export async function setPlan(
  deps: AdminDeps,
  input: { organizationId: string; plan?: Plan; status?: EntitlementStatus; features?: Feature[] },
): Promise<Entitlement> {
  const current = (await requireOrganization(deps, input.organizationId)).entitlement;
  const entitlement: Entitlement = {
    plan: check(PlanSchema, input.plan ?? current.plan, 'plan'),
    status: check(EntitlementStatusSchema, input.status ?? current.status, 'status'),
    features: check(v.array(FeatureSchema), input.features ?? current.features, 'features'),
  };
  await deps.store.setEntitlement(input.organizationId, entitlement);
  // Each key carries a copy, so that verifying it is a single read. Safe to repeat if interrupted.
  for (const keyHash of await deps.store.apiKeyHashes(input.organizationId)) await deps.store.copyEntitlementToKey(keyHash, entitlement);
  return entitlement;
}

/** Marks an organization for deletion (pending) or deleted; its keys are revoked either way. */
export async function deleteOrganization(deps: AdminDeps, input: { organizationId: string; state?: 'pending' | 'deleted' }): Promise<void> {
  const at = await deps.store.setDeletionState(input.organizationId, input.state ?? 'deleted');
  // A key must not outlive its organization; revoked keys are refused within the verification cache bound.
  for (const keyHash of await deps.store.apiKeyHashes(input.organizationId)) await deps.store.revokeApiKey(keyHash, at);
}

export async function createProductSurface(
  deps: AdminDeps,
  input: { organizationId: string; name: string; description?: string; productSurfaceId?: string },
): Promise<ProductSurfaceRecord> {
  const organization = await requireOrganization(deps, input.organizationId);
  const record: ProductSurfaceRecord = {
    productSurfaceId: input.productSurfaceId ?? newId('ps'),
    workspaceId: organization.workspaceId,
    name: check(Name, input.name, 'name'),
    createdAt: nowOf(deps).toISOString(),
  };
  if (input.description) record.description = check(v.pipe(v.string(), v.maxLength(500)), input.description, 'description');
  await deps.store.putProductSurface(record);
  return record;
}
