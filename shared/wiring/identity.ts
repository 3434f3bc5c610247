/** The identity stores of the shell and release routes, each built on first use; the authenticator's are in authenticator.ts. */
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
export const productSurfaceStore = (): ProductSurfaceStore => (productSurfaces ??= new ProductSurfaceStore(onWorkspaceTable()));

/** For the bootstrap and activation, which use nearly every store. */
export function shellStore(): ShellStore {
  shell ??= joinStores(userStore(), organizationStore(), membershipStore(), invitationStore(), apiKeyStore(), sessionStore(), productSurfaceStore());
  return shell;
}

export const rosterStore = (): Joined<[ReturnType<typeof membershipStore>, UserStore]> => (roster ??= joinStores(membershipStore(), userStore()));

export const userOrganizationsStore = (): Joined<[ReturnType<typeof membershipStore>, OrganizationStore]> =>
  (userOrganizations ??= joinStores(membershipStore(), organizationStore()));
