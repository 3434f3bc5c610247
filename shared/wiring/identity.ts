/**
 * The identity store and authenticator of this container: module-level singletons on the
 * shared DynamoDB client, configured from the environment at cold start.
 */
import { dynamo } from '#shared/wiring/dynamo.ts';
import { config } from '#shared/config.ts';
import { Authenticator } from '#shared/http/authenticator.ts';
import { IdentityStore } from '#shared/store/identity.ts';

let store: IdentityStore | undefined;
let authenticator: Authenticator | undefined;

/** The identity store on the workspace table. */
export function identityStore(): IdentityStore {
  store ??= new IdentityStore({ dynamo, table: config().tables.workspace });
  return store;
}

/** The authenticator with its in-container credential cache. */
export function containerAuthenticator(): Authenticator {
  authenticator ??= new Authenticator({ store: identityStore(), cacheTtlMs: config().authCacheTtlMs });
  return authenticator;
}
