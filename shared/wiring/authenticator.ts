/** The container's authenticator and the three stores it reads, and nothing else, so functions that authenticate bundle no other store. */
import { dynamo } from '#shared/wiring/dynamo.ts';
import { config } from '#shared/config.ts';
import { Authenticator } from '#shared/identity/authenticator.ts';
import { ApiKeyStore } from '#shared/store/api-keys.ts';
import type { IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { joinStores } from '#shared/store/identity-items.ts';
import { MembershipStore } from '#shared/store/memberships.ts';
import { SessionStore } from '#shared/store/sessions.ts';

export const onWorkspaceTable = (): IdentityStoreDeps => ({ dynamo, table: config().tables.workspace });

let apiKeys: ApiKeyStore | undefined;
let sessions: SessionStore | undefined;
let memberships: MembershipStore | undefined;
let authenticator: Authenticator | undefined;

export const apiKeyStore = (): ApiKeyStore => (apiKeys ??= new ApiKeyStore(onWorkspaceTable()));
export const sessionStore = (): SessionStore => (sessions ??= new SessionStore(onWorkspaceTable()));
export const membershipStore = (): MembershipStore => (memberships ??= new MembershipStore(onWorkspaceTable()));

export function containerAuthenticator(): Authenticator {
  authenticator ??= new Authenticator({ store: joinStores(apiKeyStore(), sessionStore(), membershipStore()), cacheTtlMs: config().authCacheTtlMs });
  return authenticator;
}
