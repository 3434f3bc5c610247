/** Who is calling, as the auth middleware resolved it; route() types it by the row's auth. */
import type { Permission, Role, Scope } from '#shared/identity/permissions.ts';
import type { Entitlement, Feature, Plan } from '#shared/identity/plans.ts';
import type { SourceApp } from '#shared/schemas/source-apps.ts';

/** A signed-in user's session, before any organization is involved. */
/** The cookie a browser's session travels in (over https as `__Host-`, docs/identity.md). */
export const SESSION_COOKIE = 'easel.session_token';

export interface SessionIdentity {
  kind: 'session';
  sessionId: string;
  userId: string;
  activeOrganizationId: string | undefined;
  /** The session record's key, for activation to update it. */
  tokenHash: string;
}

interface OrganizationScope {
  organizationId: string;
  workspaceId: string;
  /** In force: a canceled subscription is on free. */
  plan: Plan;
  entitlement: Entitlement;
  features: readonly Feature[];
  /** The key's scopes, or the permissions of the member's role. */
  permissions: readonly Permission[];
}

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

export type Principal = ApiKeyPrincipal | SessionPrincipal;

export type WebhookSigning = 'github' | 'standard';

/** A source app whose webhook delivery was verified: the app, its workspace's plan, and the delivery. */
export interface SourceAppPrincipal {
  kind: 'sourceApp';
  sourceApp: SourceApp;
  organizationId: string;
  workspaceId: string;
  plan: Plan;
  signing: WebhookSigning;
  /** X-GitHub-Delivery or webhook-id: what a redelivery repeats. */
  deliveryId: string;
  /** X-GitHub-Event (GitHub only; a Standard Webhooks event names its type in the body). */
  event?: string;
}
