/**
 * The authenticator of this container and the three stores it reads (API keys, sessions,
 * memberships): module-level singletons on the shared DynamoDB client, built on the first
 * credential check. wiring/auth.ts is its one importer, so it holds nothing else: the functions
 * that authenticate bundle these three stores and no other.
 */
import { dynamo } from '#shared/wiring/dynamo.ts';
import { config } from '#shared/config.ts';
import { Authenticator } from '#shared/identity/authenticator.ts';
import { ApiKeyStore } from '#shared/store/api-keys.ts';
import type { IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { joinStores } from '#shared/store/identity-items.ts';
import { MembershipStore } from '#shared/store/memberships.ts';
import { SessionStore } from '#shared/store/sessions.ts';

/** Where every identity store of this container is: the workspace table. */
export const onWorkspaceTable = (): IdentityStoreDeps => ({ dynamo, table: config().tables.workspace });

let apiKeys: ApiKeyStore | undefined;
let sessions: SessionStore | undefined;
let memberships: MembershipStore | undefined;
let authenticator: Authenticator | undefined;

export const apiKeyStore = (): ApiKeyStore => (apiKeys ??= new ApiKeyStore(onWorkspaceTable()));
export const sessionStore = (): SessionStore => (sessions ??= new SessionStore(onWorkspaceTable()));
export const membershipStore = (): MembershipStore => (memberships ??= new MembershipStore(onWorkspaceTable()));

/** The authenticator with its in-container credential cache. */
export function containerAuthenticator(): Authenticator {
  authenticator ??= new Authenticator({ store: joinStores(apiKeyStore(), sessionStore(), membershipStore()), cacheTtlMs: config().authCacheTtlMs });
  return authenticator;
}
