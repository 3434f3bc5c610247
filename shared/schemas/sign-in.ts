/** Sign-in: e-mail codes, passkeys, sessions and the invitations of the signed-in address. */
import * as v from 'valibot';
import { EMAIL_CODE_DIGITS } from '#shared/identity/credentials.ts';
import { RoleSchema } from '#shared/identity/permissions.ts';
import { PlainText } from '#shared/schemas/common.ts';
import { InvitationStatusSchema, MembershipView, OrganizationView, UserView } from '#shared/schemas/identity.ts';

const id = (description: string) => v.pipe(v.string(), v.minLength(1), v.maxLength(128), v.description(description));
const isoTime = (description: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(description));
/** WebAuthn's binary fields travel as base64url; a credential id is at most 1023 bytes. */
const base64url = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max), v.regex(/^[A-Za-z0-9_-]+$/, 'must be base64url'));

export const Email = v.pipe(v.string(), v.maxLength(254), v.email('must be an e-mail address'), v.description('E-mail address; compared case-insensitively.'));

// ---------------------------------------------------------------- requests

export const EmailCodeRequest = v.strictObject({ email: Email });

export const EmailCodeVerifyRequest = v.strictObject({
  email: Email,
  code: v.pipe(
    v.string(),
    v.regex(new RegExp(`^\\d{${EMAIL_CODE_DIGITS}}$`), `must be the ${EMAIL_CODE_DIGITS} digits of the code`),
    v.description(`The ${EMAIL_CODE_DIGITS}-digit code from the e-mail.`),
  ),
  name: v.optional(
    v.pipe(
      PlainText(100),
      v.minLength(1, 'must not be empty'),
      v.description('Display name of a user created by this sign-in (an invited address, or a sign-up); ignored for an existing user.'),
    ),
  ),
});
export type EmailCodeVerifyRequest = v.InferOutput<typeof EmailCodeVerifyRequest>;

const CredentialId = base64url(1400);

/** What @simplewebauthn/browser's startAuthentication() returns. */
export const AuthenticationResponse = v.object({
  id: CredentialId,
  rawId: CredentialId,
  type: v.literal('public-key'),
  response: v.object({
    clientDataJSON: base64url(8192),
    authenticatorData: base64url(8192),
    signature: base64url(2048),
    userHandle: v.optional(base64url(256)),
  }),
  clientExtensionResults: v.record(v.string(), v.unknown()),
  authenticatorAttachment: v.optional(v.picklist(['platform', 'cross-platform'])),
});

/** What @simplewebauthn/browser's startRegistration() returns. */
export const RegistrationResponse = v.object({
  id: CredentialId,
  rawId: CredentialId,
  type: v.literal('public-key'),
  response: v.object({
    clientDataJSON: base64url(8192),
    attestationObject: base64url(32_768),
    authenticatorData: v.optional(base64url(8192)),
    transports: v.optional(v.array(v.pipe(v.string(), v.maxLength(32)), 'must be a list of transports')),
    publicKeyAlgorithm: v.optional(v.number()),
    publicKey: v.optional(base64url(4096)),
  }),
  clientExtensionResults: v.record(v.string(), v.unknown()),
  authenticatorAttachment: v.optional(v.picklist(['platform', 'cross-platform'])),
});

export const PasskeySignInRequest = v.strictObject({
  response: v.pipe(AuthenticationResponse, v.description('The browser’s answer to the sign-in options (navigator.credentials.get), as JSON.')),
});

export const PasskeyRegisterRequest = v.strictObject({
  response: v.pipe(RegistrationResponse, v.description('The browser’s answer to the registration options (navigator.credentials.create), as JSON.')),
  name: v.optional(
    v.pipe(PlainText(64), v.minLength(1, 'must not be empty'), v.description('What to call the passkey in the list; by default its kind and date.')),
  ),
});

export const SessionParams = v.object({ sessionId: v.pipe(id('Session id (from GET /api/v1/auth/sessions).')) });
export const PasskeyParams = v.object({ passkeyId: v.pipe(id('Passkey id (from GET /api/v1/auth/passkeys).')) });
export const InvitationParams = v.object({ invitationId: v.pipe(id('Invitation id (from GET /api/v1/auth/invitations).')) });

// ---------------------------------------------------------------- responses

export const EmailCodeSent = v.object({
  email: v.pipe(v.string(), v.description('The address, as it will be compared.')),
  expiresInSeconds: v.pipe(v.number(), v.integer(), v.description('How long a code sent now stays valid.')),
  attempts: v.pipe(v.number(), v.integer(), v.description('Wrong codes allowed before a new one must be asked for.')),
});

/** The stored statuses, and `expired` for a pending one past its time. */
const InvitationStatusView = v.picklist([...InvitationStatusSchema.options, 'expired']);

/** An invitation as its invitee sees it. */
export const MyInvitation = v.object({
  id: id('Invitation id.'),
  organization: v.object({ id: id('Organization id.'), name: v.string() }),
  role: RoleSchema,
  status: v.pipe(InvitationStatusView, v.description('Only pending invitations can be accepted.')),
  invitedBy: v.pipe(v.nullable(v.string()), v.description('Name of who invited, when known.')),
  createdAt: isoTime('When the invitation was sent.'),
  expiresAt: isoTime('When it stops being valid.'),
});
export type MyInvitation = v.InferOutput<typeof MyInvitation>;

export const MyInvitationsResponse = v.object({ invitations: v.array(MyInvitation) });

export const SessionView = v.object({
  id: id('Session id.'),
  createdAt: isoTime('When it was signed in.'),
  expiresAt: isoTime('When it ends at the latest.'),
  method: v.pipe(v.nullable(v.string()), v.description('email-code or passkey; null for sessions an operator issued.')),
});

export const SignedIn = v.object({
  signedIn: v.literal(true),
  user: UserView,
  session: SessionView,
  activeOrganizationId: v.pipe(v.nullable(v.string()), v.description('The organization the session acts in; null until the user belongs to one.')),
  invitations: v.pipe(
    v.array(MyInvitation),
    v.description('Pending invitations of the address, to accept with POST /api/v1/auth/invitations/{invitationId}/accept.'),
  ),
});
export type SignedIn = v.InferOutput<typeof SignedIn>;

export const SessionState = v.variant('signedIn', [SignedIn, v.object({ signedIn: v.literal(false) })]);

export const SessionListItem = v.object({
  ...SessionView.entries,
  device: v.pipe(v.string(), v.description('Browser and system, read from the User-Agent at sign-in; "Unknown device" without one.')),
  lastSeenAt: v.pipe(v.nullable(v.string()), v.description('When the editor last opened with it (kept to within five minutes).')),
  current: v.pipe(v.boolean(), v.description('True for the session of this request.')),
});

export const SessionsResponse = v.object({ sessions: v.array(SessionListItem) });

export const PasskeyView = v.object({
  id: id('Passkey id.'),
  name: v.string(),
  createdAt: isoTime('When it was registered.'),
  lastUsedAt: v.pipe(v.nullable(v.string()), v.description('Its last sign-in.')),
  backedUp: v.pipe(v.boolean(), v.description('Synced by a password manager or platform (a multi-device passkey).')),
});
export type PasskeyView = v.InferOutput<typeof PasskeyView>;

export const PasskeysResponse = v.object({ passkeys: v.array(PasskeyView) });

/** The options @simplewebauthn/browser takes; their other members follow the WebAuthn JSON forms. */
export const PasskeyOptions = v.looseObject({
  challenge: v.pipe(v.string(), v.description('Single use, valid five minutes.')),
  timeout: v.optional(v.number()),
});

export const InvitationAccepted = v.object({
  organization: OrganizationView,
  membership: MembershipView,
});

// ---------------------------------------------------------------- stored records

/** An address's live code: only its hash, bound to the address (hashEmailCode). */
export const EmailCodeRecord = v.object({
  addressHash: v.string(),
  codeHash: v.string(),
  attempts: v.number(),
  createdAt: v.string(),
  /** Epoch seconds; a past value reads as absent. */
  expiresAt: v.number(),
  usedAt: v.optional(v.string()),
});
export type EmailCodeRecord = v.InferOutput<typeof EmailCodeRecord>;

export const PasskeyRecord = v.object({
  passkeyId: v.string(),
  /** base64url, as the authenticator names it. */
  credentialId: v.string(),
  userId: v.string(),
  /** The COSE public key, base64url. */
  publicKey: v.string(),
  counter: v.number(),
  transports: v.optional(v.array(v.string())),
  deviceType: v.string(),
  backedUp: v.boolean(),
  name: v.string(),
  createdAt: v.string(),
  lastUsedAt: v.optional(v.string()),
});
export type PasskeyRecord = v.InferOutput<typeof PasskeyRecord>;

export const ChallengePurpose = v.picklist(['register', 'sign-in']);

export const ChallengeRecord = v.object({
  challenge: v.string(),
  purpose: ChallengePurpose,
  /** The user a registration is for; absent for a sign-in, whose user the passkey names. */
  userId: v.optional(v.string()),
  /** Epoch seconds. */
  expiresAt: v.number(),
});
export type ChallengeRecord = v.InferOutput<typeof ChallengeRecord>;

/** What the mail queue carries: an address and when it was asked for, never a code. */
export const SignInMailMessage = v.object({ email: v.pipe(v.string(), v.maxLength(254)), requestedAt: v.pipe(v.string(), v.isoTimestamp()) });
