/** Resolves credentials to principals; keys and member contexts are cached per container for the auth TTL, within which revocations apply. */
import { FeatureNotEntitledError, ForbiddenError, UnauthorizedError } from '#shared/errors.ts';
import { TtlCache } from '#shared/cache/ttl-cache.ts';
import { grants, permissionsOf } from '#shared/identity/permissions.ts';
import { effectiveFeatures, effectivePlan, minimumPlanFor } from '#shared/identity/plans.ts';
import type { Feature } from '#shared/identity/plans.ts';
import type { ApiKeyPrincipal, Principal, SessionIdentity, SessionPrincipal } from '#shared/identity/principal.ts';
import { digestsEqual, hashSecret, isApiKeyFormat, isSessionTokenFormat } from '#shared/identity/credentials.ts';
import type { Role, Scope } from '#shared/identity/permissions.ts';
import type { Entitlement } from '#shared/identity/plans.ts';
import { log, serializeError } from '#shared/log.ts';

/** How often, at most, a key's last use is recorded: by one container, or after the stored stamp. */
export const LAST_USED_INTERVAL_MS = 60_000;

export interface StoredApiKey {
  keyId: string;
  keyHash: string;
  organizationId: string;
  workspaceId: string;
  scopes: Scope[];
  entitlement: Entitlement;
  revokedAt?: string | undefined;
  lastUsedAt?: string | undefined;
}

export interface StoredSession {
  sessionId: string;
  tokenHash: string;
  userId: string;
  activeOrganizationId?: string | undefined;
}

export interface StoredMemberContext {
  organization: { workspaceId: string; entitlement: Entitlement; deletionState: string } | undefined;
  membership: { role: Role } | undefined;
}

/** Names only what is read; the identity stores fill it in #shared/wiring/authenticator.ts. */
export interface CredentialStore {
  getApiKey(keyHash: string): Promise<StoredApiKey | undefined>;
  touchApiKey(keyHash: string, at: string): Promise<void>;
  getSession(tokenHash: string): Promise<StoredSession | undefined>;
  getMemberContext(organizationId: string, userId: string): Promise<StoredMemberContext>;
}

export interface AuthenticatorOptions {
  store: CredentialStore;
  /** 0 disables the cache. */
  cacheTtlMs: number;
  lastUsedIntervalMs?: number;
  now?: () => number;
}

const ACTIVATE_HINT = 'GET /api/v1/organizations lists your organizations; POST /api/v1/organizations/{organizationId}/activate switches to one.';

export class Authenticator {
  private readonly store: AuthenticatorOptions['store'];
  private readonly now: () => number;
  // null remembers "no such key", so a repeated unknown key costs no read either.
  private readonly keys: TtlCache<string, StoredApiKey | null>;
  private readonly members: TtlCache<string, StoredMemberContext>;
  private readonly touched: TtlCache<string, true>;
  private readonly lastUsedIntervalMs: number;

  constructor(options: AuthenticatorOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.keys = new TtlCache({ ttlMs: options.cacheTtlMs, maxEntries: 1000, now: this.now });
    this.members = new TtlCache({ ttlMs: options.cacheTtlMs, maxEntries: 1000, now: this.now });
    this.lastUsedIntervalMs = options.lastUsedIntervalMs ?? LAST_USED_INTERVAL_MS;
    this.touched = new TtlCache({ ttlMs: this.lastUsedIntervalMs, maxEntries: 1000, now: this.now });
  }

  /** Unknown, malformed and revoked keys get the same 401. */
  async apiKey(secret: string): Promise<ApiKeyPrincipal> {
    const refused = (cause: string) =>
      new UnauthorizedError({ hint: 'The API key is not valid: it is unknown or revoked. Use an active organization API key.', cause });
    if (!isApiKeyFormat(secret)) throw refused('malformed API key');
    const hash = hashSecret(secret);
    let record = this.keys.get(hash);
    if (record === undefined) {
      record = (await this.store.getApiKey(hash)) ?? null;
      this.keys.set(hash, record);
    }
    // Compared again in constant time, so the check does not depend on how the lookup matched.
    if (!record || !digestsEqual(record.keyHash, hash)) throw refused('unknown API key');
    if (record.revokedAt) throw refused(`API key ${record.keyId} revoked at ${record.revokedAt}`);
    this.recordUse(hash, record);
    return {
      kind: 'apiKey',
      keyId: record.keyId,
      organizationId: record.organizationId,
      workspaceId: record.workspaceId,
      entitlement: record.entitlement,
      plan: effectivePlan(record.entitlement),
      features: effectiveFeatures(record.entitlement),
      permissions: record.scopes,
    };
  }

  /** Unknown, malformed and expired sessions get the same 401. Never cached: activation changes it. */
  async session(token: string): Promise<SessionIdentity> {
    const refused = (cause: string) => new UnauthorizedError({ hint: 'The session is unknown or has expired; sign in again.', cause });
    if (!isSessionTokenFormat(token)) throw refused('malformed session token');
    const hash = hashSecret(token);
    const record = await this.store.getSession(hash);
    if (!record || !digestsEqual(record.tokenHash, hash)) throw refused('unknown or expired session');
    return { kind: 'session', sessionId: record.sessionId, userId: record.userId, activeOrganizationId: record.activeOrganizationId, tokenHash: hash };
  }

  /** 403 when no organization is active, the user is not its member, or it is being deleted. */
  async member(identity: SessionIdentity): Promise<SessionPrincipal> {
    const organizationId = identity.activeOrganizationId;
    if (!organizationId) throw new ForbiddenError(`No organization is active in this session. ${ACTIVATE_HINT}`, 'no active organization');
    const cacheKey = `${organizationId}\n${identity.userId}`;
    let context = this.members.get(cacheKey);
    if (!context) {
      context = await this.store.getMemberContext(organizationId, identity.userId);
      // Only a membership is remembered: someone just added must not be refused for the TTL.
      if (context.organization && context.membership) this.members.set(cacheKey, context);
    }
    const { organization, membership } = context;
    if (!organization || !membership) {
      throw new ForbiddenError(`You are not a member of the active organization. ${ACTIVATE_HINT}`, 'not a member of the active organization');
    }
    if (organization.deletionState !== 'active') {
      throw new ForbiddenError(`The active organization is being deleted. ${ACTIVATE_HINT}`, `organization ${organizationId} is ${organization.deletionState}`);
    }
    const { activeOrganizationId: _active, ...session } = identity;
    return {
      ...session,
      role: membership.role,
      organizationId,
      workspaceId: organization.workspaceId,
      entitlement: organization.entitlement,
      plan: effectivePlan(organization.entitlement),
      features: effectiveFeatures(organization.entitlement),
      permissions: permissionsOf(membership.role),
    };
  }

  /** Waits for the last-use stamps in flight, never failing, before a response leaves: Lambda freezes the sandbox once it has. */
  async settle(): Promise<void> {
    await Promise.all(this.pending);
  }

  private readonly pending = new Set<Promise<void>>();

  /** At most once per interval per container, and not while the stored stamp is younger: a cold container for a busy key writes nothing. */
  private recordUse(hash: string, { keyId, lastUsedAt }: StoredApiKey): void {
    if (this.touched.get(hash)) return;
    if (lastUsedAt !== undefined && this.now() - Date.parse(lastUsedAt) < this.lastUsedIntervalMs) return;
    this.touched.set(hash, true);
    const write = this.store
      .touchApiKey(hash, new Date(this.now()).toISOString())
      .catch((error: unknown) => {
        // Bookkeeping: must not fail the request.
        log.warn('api key last-used update failed', { keyId, error: serializeError(error) });
      })
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }
}

/** 403 unless the key's scopes or the member's role include the permission. */
export function requirePermission(principal: Principal, permission: string): void {
  if (grants(principal.permissions, permission)) return;
  if (principal.kind === 'apiKey') {
    throw new ForbiddenError(`The API key does not hold the scope ${permission}; use a key with that scope.`, `key ${principal.keyId} lacks ${permission}`);
  }
  throw new ForbiddenError(
    `Your role (${principal.role}) does not grant the permission ${permission}; ask an owner or admin of the organization.`,
    `role ${principal.role} lacks ${permission}`,
  );
}

/** 403 `workspace_feature_not_entitled` unless the organization's plan includes the feature. */
export function requireFeature(principal: Principal, feature: Feature): void {
  if (principal.features.includes(feature)) return;
  throw new FeatureNotEntitledError({ feature, currentPlan: principal.plan, requiredPlan: minimumPlanFor(feature) });
}
