/**
 * The identity stores of the shell and release routes: module-level singletons on the shared
 * DynamoDB client, configured from the environment at cold start, each built on first use so a
 * route bundles only the stores its handler names. The authenticator and the stores it reads
 * (API keys, sessions, memberships) are in wiring/authenticator.ts.
 */
import type { ShellStore } from '#shared/services/shell.ts';
import { joinStores, type Joined } from '#shared/store/identity-items.ts';
import { InvitationStore } from '#shared/store/invitations.ts';
import { OrganizationStore } from '#shared/store/organizations.ts';
import { ProductSurfaceStore } from '#shared/store/product-surfaces.ts';
import { UserStore } from '#shared/store/users.ts';
import { apiKeyStore, membershipStore, onWorkspaceTable, sessionStore } from '#shared/wiring/authenticator.ts';

export { membershipStore };

let users: UserStore | undefined;
let organizations: OrganizationStore | undefined;
let invitations: InvitationStore | undefined;
let productSurfaces: ProductSurfaceStore | undefined;
let shell: ShellStore | undefined;
let roster: Joined<[ReturnType<typeof membershipStore>, UserStore]> | undefined;
let userOrganizations: Joined<[ReturnType<typeof membershipStore>, OrganizationStore]> | undefined;

export const userStore = (): UserStore => (users ??= new UserStore(onWorkspaceTable()));
export const organizationStore = (): OrganizationStore => (organizations ??= new OrganizationStore(onWorkspaceTable()));
export const invitationStore = (): InvitationStore => (invitations ??= new InvitationStore(onWorkspaceTable()));
/** Product surfaces (releases check the ones they name). */
export const productSurfaceStore = (): ProductSurfaceStore => (productSurfaces ??= new ProductSurfaceStore(onWorkspaceTable()));

/** Every store operation of the shell, for the bootstrap and activation that use nearly all. */
export function shellStore(): ShellStore {
  shell ??= joinStores(userStore(), organizationStore(), membershipStore(), invitationStore(), apiKeyStore(), sessionStore(), productSurfaceStore());
  return shell;
}

/** Memberships and users, joined once per container: the members roster reads both. */
export const rosterStore = (): Joined<[ReturnType<typeof membershipStore>, UserStore]> =>
  (roster ??= joinStores(membershipStore(), userStore()));

/** Memberships and organizations, joined once per container: a user's organizations read both. */
export const userOrganizationsStore = (): Joined<[ReturnType<typeof membershipStore>, OrganizationStore]> =>
  (userOrganizations ??= joinStores(membershipStore(), organizationStore()));
