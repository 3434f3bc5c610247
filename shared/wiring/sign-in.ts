/** The sign-in routes' stores and settings, each built on first use; the mail queue and mailer are in sign-in-mail.ts. */
import { config } from '#shared/config.ts';
import type { AccountDeps } from '#shared/services/sign-in/accounts.ts';
import type { InvitationDeps } from '#shared/services/sign-in/invitations.ts';
import type { PasskeyDeps } from '#shared/services/sign-in/passkeys.ts';
import type { SessionDeps } from '#shared/services/sign-in/sessions.ts';
import { EmailCodeStore } from '#shared/store/email-codes.ts';
import { joinStores } from '#shared/store/identity-items.ts';
import { PasskeyChallengeStore } from '#shared/store/passkey-challenges.ts';
import { PasskeyStore } from '#shared/store/passkeys.ts';
import { membershipStore, onWorkspaceTable, sessionStore } from '#shared/wiring/authenticator.ts';
import { invitationStore, organizationStore, userStore } from '#shared/wiring/identity.ts';

let sessions: SessionDeps | undefined;
let accounts: AccountDeps | undefined;
let invitations: InvitationDeps | undefined;
let passkeys: PasskeyDeps | undefined;
let codes: EmailCodeStore | undefined;

export function sessionDeps(): SessionDeps {
  sessions ??= {
    store: joinStores(sessionStore(), userStore(), membershipStore(), organizationStore(), invitationStore()),
    sessionHours: config().signIn.sessionHours,
  };
  return sessions;
}

export function accountDeps(): AccountDeps {
  accounts ??= { store: joinStores(userStore(), invitationStore(), organizationStore(), membershipStore()), allowSignUp: config().signIn.allowSignUp };
  return accounts;
}

export function invitationDeps(): InvitationDeps {
  invitations ??= { store: joinStores(invitationStore(), organizationStore(), userStore(), membershipStore()) };
  return invitations;
}

export function passkeyDeps(): PasskeyDeps {
  passkeys ??= {
    store: joinStores(new PasskeyStore(onWorkspaceTable()), new PasskeyChallengeStore(onWorkspaceTable()), userStore()),
    relyingParty: config().signIn.passkeys,
  };
  return passkeys;
}

export const emailCodeStore = (): EmailCodeStore => (codes ??= new EmailCodeStore(onWorkspaceTable()));
