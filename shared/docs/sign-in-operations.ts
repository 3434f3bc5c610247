/** What the documents say about the sign-in operations (shared/routes/sign-in.ts); spread into OPERATION_DOCS. */
import { SESSION_COOKIE } from '#shared/docs/catalog.ts';
import type { AnySchema, OperationDoc } from '#shared/route-types.ts';
import {
  EmailCodeSent,
  InvitationAccepted,
  MyInvitationsResponse,
  PasskeyOptions,
  PasskeysResponse,
  PasskeyView,
  SessionsResponse,
  SessionState,
  SignedIn,
} from '#shared/schemas/sign-in.ts';
import * as v from 'valibot';

const json = <S extends AnySchema>(description: string, schema: S) => ({ description, contentType: 'application/json', schema });
const COOKIE = {
  'Set-Cookie': {
    description: `The session: \`${SESSION_COOKIE}\` (\`__Host-${SESSION_COOKIE}\` over https), HttpOnly, SameSite=Lax, Secure over https, for SESSION_HOURS.`,
    schema: { type: 'string' as const },
  },
};
const CLEARS = { 'Set-Cookie': { description: 'Expires the session cookies the request carried.', schema: { type: 'string' as const } } };
const ENDED = v.object({ ended: v.pipe(v.number(), v.integer(), v.description('Sessions ended.')) });

export const SIGN_IN_DOCS = {
  sendEmailCode: {
    summary: 'Ask for a sign-in code',
    description:
      'Queues a 6-digit code for the address and answers 202 at once, the same answer for every address: the code is mailed only to an address with an account or a pending invitation (any address when the deployment allows sign-up), so nobody learns from this who has an account. A code works once, within 10 minutes, with 5 tries; a new one replaces the last. Limited to 10 requests per 10 minutes per IP and 5 codes an hour per address (429 `rate_limited` with `retryAfter`). Locally the mail goes to the outbox that `npm start` prints.',
    responses: { 202: json('Queued: check the mailbox.', EmailCodeSent) },
  },
  verifyEmailCode: {
    summary: 'Sign in with a code',
    description:
      'Checks the code of the address and signs in: a new session cookie, the previous session of this browser ended. A wrong, expired or used code is 400 `invalid_request`, as is the sixth try of one code; tries are limited per IP and to 10 an hour per address. An invited address without an account gets one (named by `name`, else its local part); with sign-up allowed, a new address gets an account and, without an invitation, an organization of its own on the free plan. The answer lists the pending invitations of the address.',
    responses: { 200: { ...json('Signed in.', SignedIn), headers: COOKIE } },
  },
  passkeySignInOptions: {
    summary: 'Options for a passkey sign-in',
    description:
      'The options for `navigator.credentials.get()` (or @simplewebauthn/browser’s `startAuthentication`): a challenge stored for five minutes and taken once, no user named, user verification required. No request body.',
    responses: { 200: json('The WebAuthn request options.', PasskeyOptions) },
  },
  signInWithPasskey: {
    summary: 'Sign in with a passkey',
    description:
      'Verifies the browser’s answer against its stored challenge (taken once: a replayed answer is 400) and the passkey’s public key, then signs in with a new session cookie. A passkey that is not registered here is 401; an answer that does not verify (another site, no user verification, a counter gone backwards) is 400.',
    responses: { 200: { ...json('Signed in.', SignedIn), headers: COOKIE } },
  },
  getSession: {
    summary: 'Who is signed in',
    description:
      'The user, session, active organization and pending invitations of the session cookie, or `signedIn: false` without one (an expired cookie is cleared): the editor asks on every load, and an anonymous visit gets no 401. Disagreeing session cookies are 401.',
    responses: { 200: json('The session, or signedIn false.', SessionState) },
  },
  signOut: {
    summary: 'Sign out',
    description:
      'Ends the session of the cookie and clears every session cookie the request carried (`__Host-`, `__Secure-` and plain names alike). 204 whether or not a session was signed in.',
    responses: { 204: { description: 'Signed out.', headers: CLEARS } },
  },
  listSessions: {
    summary: 'Your sessions',
    description:
      'The live sessions of the signed-in user, newest first: the device (from the User-Agent at sign-in), when it signed in and was last seen, when it ends, and which is this one.',
    responses: { 200: json('The sessions.', SessionsResponse) },
  },
  endOtherSessions: {
    summary: 'Sign out everywhere else',
    description: 'Ends every session of the user but this one. Sign out ends this one.',
    responses: { 200: json('How many sessions ended.', ENDED) },
  },
  endSession: {
    summary: 'End a session',
    description: 'Ends one of the user’s sessions; ending this one clears its cookie. 404 when no live session of the user has the id.',
    responses: { 204: { description: 'Ended.', headers: CLEARS } },
  },
  passkeyRegistrationOptions: {
    summary: 'Options to add a passkey',
    description:
      'The options for `navigator.credentials.create()` (or `startRegistration`): a discoverable credential with user verification, excluding the user’s passkeys, under a challenge stored for five minutes and bound to the user. No request body.',
    responses: { 200: json('The WebAuthn creation options.', PasskeyOptions) },
  },
  registerPasskey: {
    summary: 'Add a passkey',
    description:
      'Verifies the browser’s registration answer against the user’s own stored challenge (taken once) and keeps the passkey. A user may have several. 400 when it does not verify or is registered already.',
    responses: { 201: json('The passkey.', PasskeyView) },
  },
  listPasskeys: {
    summary: 'Your passkeys',
    description: 'The passkeys of the signed-in user, oldest first, with when each was added and last used.',
    responses: { 200: json('The passkeys.', PasskeysResponse) },
  },
  deletePasskey: {
    summary: 'Remove a passkey',
    description: 'Removes one of the user’s passkeys: it no longer signs in. 404 when the user has none with the id.',
    responses: { 204: { description: 'Removed.' } },
  },
  listMyInvitations: {
    summary: 'Your invitations',
    description: 'Every invitation sent to the signed-in address, newest first, with its state: pending, accepted, revoked or expired.',
    responses: { 200: json('The invitations.', MyInvitationsResponse) },
  },
  acceptInvitation: {
    summary: 'Accept an invitation',
    description:
      'Joins the organization with the invitation’s role (an existing membership keeps its role). 404 when no invitation with the id was sent to the user’s address; 400 when it expired, was revoked or is accepted already. The session keeps its active organization: activate the new one with POST /api/v1/organizations/{organizationId}/activate.',
    responses: { 200: json('The organization and the membership.', InvitationAccepted) },
  },
} satisfies Record<string, OperationDoc>;
