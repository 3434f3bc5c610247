/** Every identity store joined, for the admin command line, the demo seed and tests. */
import { ApiKeyStore } from '#shared/store/api-keys.ts';
import { joinStores, type IdentityStoreDeps, type Joined } from '#shared/store/identity-items.ts';
import { InvitationIndexStore } from '#shared/store/invitation-index.ts';
import { InvitationStore } from '#shared/store/invitations.ts';
import { MembershipStore } from '#shared/store/memberships.ts';
import { OrganizationStore } from '#shared/store/organizations.ts';
import { ProductSurfaceStore } from '#shared/store/product-surfaces.ts';
import { SessionStore } from '#shared/store/sessions.ts';
import { UserStore } from '#shared/store/users.ts';
import { PasskeyStore } from '#shared/store/passkeys.ts';
import { EmailCodeStore } from '#shared/store/email-codes.ts';
import { PasskeyChallengeStore } from '#shared/store/passkey-challenges.ts';

export type IdentityStores = Joined<
  [
    UserStore,
    OrganizationStore,
    MembershipStore,
    InvitationStore,
    InvitationIndexStore,
    ApiKeyStore,
    SessionStore,
    ProductSurfaceStore,
    PasskeyStore,
    EmailCodeStore,
    PasskeyChallengeStore,
  ]
>;

export function identityStores(deps: IdentityStoreDeps): IdentityStores {
  return joinStores(
    new UserStore(deps),
    new OrganizationStore(deps),
    new MembershipStore(deps),
    new InvitationStore(deps),
    new InvitationIndexStore(deps),
    new ApiKeyStore(deps),
    new SessionStore(deps),
    new ProductSurfaceStore(deps),
    new PasskeyStore(deps),
    new EmailCodeStore(deps),
    new PasskeyChallengeStore(deps),
  );
}
