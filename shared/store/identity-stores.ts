/**
 * All seven identity stores joined (see joinStores), for the admin command line, the demo seed
 * and tests: what an operator may do to any identity item.
 */
import { ApiKeyStore } from '#shared/store/api-keys.ts';
import { joinStores, type IdentityStoreDeps, type Joined } from '#shared/store/identity-items.ts';
import { InvitationStore } from '#shared/store/invitations.ts';
import { MembershipStore } from '#shared/store/memberships.ts';
import { OrganizationStore } from '#shared/store/organizations.ts';
import { ProductSurfaceStore } from '#shared/store/product-surfaces.ts';
import { SessionStore } from '#shared/store/sessions.ts';
import { UserStore } from '#shared/store/users.ts';

/** Every identity operation: users, organizations, memberships, invitations, API keys, sessions, product surfaces. */
export type IdentityStores = Joined<[UserStore, OrganizationStore, MembershipStore, InvitationStore, ApiKeyStore, SessionStore, ProductSurfaceStore]>;

/** All seven identity stores on one table, joined. */
export function identityStores(deps: IdentityStoreDeps): IdentityStores {
  return joinStores(
    new UserStore(deps),
    new OrganizationStore(deps),
    new MembershipStore(deps),
    new InvitationStore(deps),
    new ApiKeyStore(deps),
    new SessionStore(deps),
    new ProductSurfaceStore(deps),
  );
}
