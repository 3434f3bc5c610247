/**
 * Who is calling, as the auth middleware resolved it. Routes receive it typed by their row:
 * workspace routes (auth 'apiKey') get a {@link Principal}, shell routes that name a permission a
 * {@link SessionPrincipal}, shell routes without one (me, organizations, activate) a {@link SessionIdentity}.
 */
import type { Permission, Role, Scope } from '#shared/identity/permissions.ts';
import type { Entitlement, Feature, Plan } from '#shared/identity/plans.ts';

/** A signed-in user's session, before any organization is involved. */
export interface SessionIdentity {
  kind: 'session';
  sessionId: string;
  userId: string;
  /** The organization the session works in, if one was activated. */
  activeOrganizationId: string | undefined;
  /** SHA-256 of the session token: the key of the session record (activation updates it). */
  tokenHash: string;
}

/** What every caller of a workspace operation resolves to: an organization, its plan, and what it may do. */
interface OrganizationScope {
  organizationId: string;
  workspaceId: string;
  /** Plan in force (a canceled subscription is on free). */
  plan: Plan;
  entitlement: Entitlement;
  /** Features included now. */
  features: readonly Feature[];
  /** The key's scopes, or the permissions of the member's role. */
  permissions: readonly Permission[];
}

/** An organization API key. */
export interface ApiKeyPrincipal extends OrganizationScope {
  kind: 'apiKey';
  keyId: string;
  permissions: readonly Scope[];
}

/** A member of the active organization, through a session. */
export interface SessionPrincipal extends OrganizationScope, Omit<SessionIdentity, 'activeOrganizationId'> {
  kind: 'session';
  role: Role;
}

/** The caller of a workspace operation: an API key, or a member through a session. */
export type Principal = ApiKeyPrincipal | SessionPrincipal;
