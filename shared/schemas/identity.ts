/** Identity records and shell views; records are parsed on every read, so a malformed item fails loudly. */
import * as v from 'valibot';
import { CAPABILITY_LIST } from '#shared/identity/capabilities.ts';
import type { Capability } from '#shared/identity/capabilities.ts';
import { PermissionSchema, RoleSchema, ScopeSchema } from '#shared/identity/permissions.ts';
import { Entitlement, EntitlementStatusSchema, FeatureSchema, PlanSchema, QUOTA_LIST } from '#shared/identity/plans.ts';

const id = (description: string) => v.pipe(v.string(), v.minLength(1), v.maxLength(128), v.description(description));
const isoTime = (description: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(description));
const count = (description: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(description));

/** Filled on first need: Intl.supportedValuesOf is not free. */
let primaryTimeZones: Set<string> | undefined;

/**
 * Exactly what `new Intl.DateTimeFormat('en', { timeZone })` accepts, without loading ICU date data
 * for "UTC" and primary identifiers, which ECMA-402 requires it to accept anyway
 * (test/unit/workspace-settings.test.ts checks every zone).
 */
function isTimeZone(value: string): boolean {
  if (value === 'UTC') return true;
  primaryTimeZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (primaryTimeZones.has(value)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- settings

/** Workspace settings, as stored and as returned. */
export const WorkspaceSettings = v.object({
  locale: v.pipe(v.string(), v.check(isLocale, 'must be a BCP 47 language tag such as en-US'), v.description('BCP 47 language tag, e.g. en-US.')),
  timeZone: v.pipe(v.string(), v.check(isTimeZone, 'must be an IANA time zone such as Europe/Paris'), v.description('IANA time zone, e.g. Europe/Paris.')),
  defaultPublishingTime: v.pipe(
    v.string(),
    v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a 24-hour time HH:MM'),
    v.description('Time of day (HH:MM, 24-hour, in the time zone) releases are published at by default.'),
  ),
  description: v.pipe(v.string(), v.maxLength(500), v.description('Plain-text description of the workspace.')),
});
export type WorkspaceSettings = v.InferOutput<typeof WorkspaceSettings>;

export const DEFAULT_SETTINGS: WorkspaceSettings = { locale: 'en-US', timeZone: 'UTC', defaultPublishingTime: '09:00', description: '' };

// ---------------------------------------------------------------- stored records

export const DeletionStateSchema = v.picklist(['active', 'pending', 'deleted']);
/** pending: deletion requested, data not yet purged. Only active organizations can be used. */
export type DeletionState = v.InferOutput<typeof DeletionStateSchema>;

export const UserRecord = v.object({
  userId: v.string(),
  email: v.pipe(v.string(), v.email()),
  name: v.string(),
  avatarUrl: v.optional(v.string()),
  createdAt: v.string(),
});
export type UserRecord = v.InferOutput<typeof UserRecord>;

export const OrganizationRecord = v.object({
  organizationId: v.string(),
  name: v.string(),
  workspaceId: v.string(),
  entitlement: Entitlement,
  deletionState: DeletionStateSchema,
  deletionRequestedAt: v.optional(v.string()),
  createdAt: v.string(),
});
export type OrganizationRecord = v.InferOutput<typeof OrganizationRecord>;

/** Shape only: checked when written (identity-admin); rechecking each read would load ICU data at cold start. */
const StoredWorkspaceSettings = v.object({
  locale: v.string(),
  timeZone: v.string(),
  defaultPublishingTime: v.string(),
  description: v.string(),
});

export const WorkspaceRecord = v.object({
  workspaceId: v.string(),
  organizationId: v.string(),
  name: v.string(),
  settings: StoredWorkspaceSettings,
  createdAt: v.string(),
});
export type WorkspaceRecord = v.InferOutput<typeof WorkspaceRecord>;

export const MembershipRecord = v.object({
  organizationId: v.string(),
  workspaceId: v.string(),
  userId: v.string(),
  role: RoleSchema,
  createdAt: v.string(),
});
export type MembershipRecord = v.InferOutput<typeof MembershipRecord>;

export const InvitationStatusSchema = v.picklist(['pending', 'accepted', 'revoked']);

export const InvitationRecord = v.object({
  invitationId: v.string(),
  organizationId: v.string(),
  email: v.string(),
  role: RoleSchema,
  status: InvitationStatusSchema,
  invitedBy: v.optional(v.string()),
  createdAt: v.string(),
  /** Epoch seconds (the table's TTL attribute); a past value reads as absent. */
  expiresAt: v.number(),
  /** Who accepted it and when: accepting again as the same user repairs a membership a failure left out. */
  acceptedBy: v.optional(v.string()),
  acceptedAt: v.optional(v.string()),
});
export type InvitationRecord = v.InferOutput<typeof InvitationRecord>;

export const ApiKeyRecord = v.object({
  keyId: v.string(),
  /** SHA-256 of the key, hex; the key itself is never stored. */
  keyHash: v.string(),
  organizationId: v.string(),
  workspaceId: v.string(),
  name: v.string(),
  scopes: v.array(ScopeSchema),
  /** Copied so verifying a key is one read; the identity store writes every change to the keys too. */
  entitlement: Entitlement,
  createdBy: v.string(),
  createdAt: v.string(),
  lastUsedAt: v.optional(v.string()),
  revokedAt: v.optional(v.string()),
});
export type ApiKeyRecord = v.InferOutput<typeof ApiKeyRecord>;

export const SessionRecord = v.object({
  sessionId: v.string(),
  /** SHA-256 of the token, hex; the token itself is never stored. */
  tokenHash: v.string(),
  userId: v.string(),
  activeOrganizationId: v.optional(v.string()),
  createdAt: v.string(),
  /** Epoch seconds (the table's TTL attribute); a past value reads as absent. */
  expiresAt: v.number(),
  /** `admin-cli`, `seed`, or `sign-in`. */
  origin: v.string(),
  /** How a sign-in proved the user: `email-code` or `passkey`. */
  method: v.optional(v.string()),
  /** The browser's User-Agent at sign-in, cut to 512 characters: what the session list names. */
  userAgent: v.optional(v.string()),
  /** When the editor last opened with it (at most every few minutes). */
  lastSeenAt: v.optional(v.string()),
});
export type SessionRecord = v.InferOutput<typeof SessionRecord>;

export const ProductSurfaceRecord = v.object({
  productSurfaceId: v.string(),
  workspaceId: v.string(),
  name: v.string(),
  description: v.optional(v.string()),
  createdAt: v.string(),
});
export type ProductSurfaceRecord = v.InferOutput<typeof ProductSurfaceRecord>;

// ---------------------------------------------------------------- views (responses)

export const UserView = v.object({
  id: id('User id.'),
  name: v.string(),
  email: v.pipe(v.string(), v.email()),
  avatarUrl: v.pipe(v.nullable(v.string()), v.description('Avatar image URL, or null.')),
});
export type UserView = v.InferOutput<typeof UserView>;

export const OrganizationView = v.object({
  id: id('Organization id.'),
  name: v.string(),
  workspaceId: id('The id of the organization’s one workspace.'),
  deletionState: v.pipe(DeletionStateSchema, v.description('active, or pending when deletion was requested.')),
  createdAt: isoTime('Creation time.'),
});
export type OrganizationView = v.InferOutput<typeof OrganizationView>;

export const OrganizationListItem = v.object({
  ...OrganizationView.entries,
  role: RoleSchema,
  active: v.pipe(v.boolean(), v.description('True for the organization active in this session.')),
});
export type OrganizationListItem = v.InferOutput<typeof OrganizationListItem>;

export const MembershipView = v.object({
  role: RoleSchema,
  permissions: v.pipe(v.array(PermissionSchema), v.description('Every permission the role grants.')),
});
export type MembershipView = v.InferOutput<typeof MembershipView>;

export const ProductSurfaceView = v.object({ id: id('Product surface id.'), name: v.string(), description: v.nullable(v.string()) });

export const WorkspaceView = v.object({
  id: id('Workspace id.'),
  name: v.string(),
  settings: WorkspaceSettings,
  productSurfaces: v.pipe(v.array(ProductSurfaceView), v.description('Product surfaces a release can name in productSurfaceId.')),
});
export type WorkspaceView = v.InferOutput<typeof WorkspaceView>;

export const EntitlementView = v.object({
  plan: PlanSchema,
  status: EntitlementStatusSchema,
  features: v.pipe(v.array(FeatureSchema), v.description('Features included now (plan features plus extra grants).')),
  quotas: v.pipe(
    v.object(
      Object.fromEntries(QUOTA_LIST.map((quota) => [quota, count(`Limit of ${quota}.`)])) as Record<(typeof QUOTA_LIST)[number], ReturnType<typeof count>>,
    ),
    v.description('Quota limits of the plan.'),
  ),
});
export type EntitlementView = v.InferOutput<typeof EntitlementView>;

export const Counters = v.object({
  members: count('Members of the organization.'),
  pendingInvitations: count('Invitations not yet accepted, revoked or expired.'),
  activeApiKeys: count('API keys not revoked.'),
  productSurfaces: count('Product surfaces of the workspace.'),
});
export type Counters = v.InferOutput<typeof Counters>;

// ---------------------------------------------------------------- responses

export const MeResponse = UserView;

export const OrganizationsResponse = v.object({
  organizations: v.array(OrganizationListItem),
  activeOrganizationId: v.pipe(v.nullable(v.string()), v.description('The organization active in this session, or null.')),
});

export const OrganizationResponse = OrganizationView;

export const MembersResponse = v.object({
  members: v.array(
    v.object({
      userId: id('User id.'),
      name: v.string(),
      email: v.string(),
      avatarUrl: v.nullable(v.string()),
      role: RoleSchema,
      joinedAt: isoTime('When the membership was created.'),
    }),
  ),
});

export const InvitationsResponse = v.object({
  invitations: v.array(
    v.object({
      id: id('Invitation id.'),
      email: v.string(),
      role: RoleSchema,
      status: InvitationStatusSchema,
      invitedBy: v.nullable(v.string()),
      createdAt: isoTime('When the invitation was sent.'),
      expiresAt: isoTime('When the invitation stops being valid.'),
    }),
  ),
});

export const SettingsResponse = WorkspaceSettings;

export const PermissionsResponse = v.object({
  organizationId: id('Organization id.'),
  ...MembershipView.entries,
});

export const CapabilityFlags = v.pipe(
  v.object(Object.fromEntries(CAPABILITY_LIST.map((name) => [name, v.boolean()])) as Record<Capability, v.BooleanSchema<undefined>>),
  v.description('Capability flags: what the editor may offer this member (rendering hints; every operation re-checks).'),
);

export const CapabilitiesResponse = v.object({
  organizationId: id('Organization id.'),
  capabilities: CapabilityFlags,
  entitlements: v.pipe(
    v.object({ plan: PlanSchema, status: EntitlementStatusSchema, features: v.array(FeatureSchema) }),
    v.description('The safe entitlement view: plan, status and features.'),
  ),
});

export const BootstrapResponse = v.object({
  user: UserView,
  organization: OrganizationView,
  organizations: v.array(OrganizationListItem),
  membership: MembershipView,
  workspace: WorkspaceView,
  entitlements: EntitlementView,
  capabilities: CapabilityFlags,
  counters: Counters,
});
export type BootstrapResponse = v.InferOutput<typeof BootstrapResponse>;

export const OrganizationParams = v.object({
  organizationId: v.pipe(v.string(), v.minLength(1), v.maxLength(128), v.description('Organization id; must be the active organization.')),
});
