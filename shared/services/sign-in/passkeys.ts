/** Passkeys (@simplewebauthn/server), discoverable; each challenge is stored, lives five minutes and is taken once before checking: no replay. */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type * as v from 'valibot';
import { InvalidRequestError, NotFoundError, UnauthorizedError } from '#shared/errors.ts';
import { newId } from '#shared/identity/credentials.ts';
import type { ChallengeRecord, PasskeyRecord, PasskeysResponse, PasskeyView } from '#shared/schemas/sign-in.ts';
import { deviceOf } from '#shared/services/sign-in/devices.ts';
import { myInvitations } from '#shared/services/sign-in/invitations.ts';
import { requireUser } from '#shared/services/shell.ts';
import { firstOrganization, issueSession, type IssuedSession, type SessionDeps } from '#shared/services/sign-in/sessions.ts';
import { AlreadyExistsError } from '#shared/store/identity-items.ts';
import type { PasskeyChallengeStore } from '#shared/store/passkey-challenges.ts';
import type { PasskeyStore } from '#shared/store/passkeys.ts';
import type { UserStore } from '#shared/store/users.ts';

export const CHALLENGE_SECONDS = 5 * 60;
/** Ed25519, ES256, RS256 (COSE -8, -7, -257); not ML-DSA-44, which the library adds where Node has it: an experimental API that warns on stderr. */
const ALGORITHMS = [-8, -7, -257];

export interface PasskeyDeps {
  store: Pick<PasskeyStore, 'getPasskey' | 'putPasskey' | 'listPasskeysOfUser' | 'recordPasskeyUse' | 'deletePasskey'> &
    Pick<PasskeyChallengeStore, 'putChallenge' | 'takeChallenge'> &
    Pick<UserStore, 'getUser'>;
  /** From config().signIn.passkeys: the RP ID and the pages allowed to use it. */
  relyingParty: { rpId: string; rpName: string; origins: readonly string[] };
  now?: () => Date;
}

const bytes = (text: string) => new TextEncoder().encode(text);
const toBase64url = (value: Uint8Array) => Buffer.from(value).toString('base64url');
const fromBase64url = (value: string) => new Uint8Array(Buffer.from(value, 'base64url'));

function view(record: PasskeyRecord): PasskeyView {
  return { id: record.passkeyId, name: record.name, createdAt: record.createdAt, lastUsedAt: record.lastUsedAt ?? null, backedUp: record.backedUp };
}

/** The challenge a browser signed, from its client data; 400 when that is not readable JSON. */
function signedChallenge(clientDataJSON: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (parsed as { challenge?: unknown }).challenge;
    if (typeof challenge === 'string' && challenge !== '') return challenge;
  } catch {
    // Answered below.
  }
  throw new InvalidRequestError('Unreadable passkey answer', 'response.response.clientDataJSON must be the browser’s client data, base64url-encoded.');
}

async function takeChallenge(deps: PasskeyDeps, clientDataJSON: string, purpose: ChallengeRecord['purpose']): Promise<ChallengeRecord> {
  const challenge = await deps.store.takeChallenge(signedChallenge(clientDataJSON), purpose);
  if (!challenge) {
    throw new InvalidRequestError(
      'Unknown or used challenge',
      'This passkey answer is for a challenge that is unknown, already used or expired: start again, which asks for new options.',
    );
  }
  return challenge;
}

const notVerified = (cause: unknown) =>
  new InvalidRequestError(
    'Passkey not verified',
    `The passkey’s answer did not verify${cause instanceof Error ? ` (${cause.message})` : ''}: try again from the editor, at an address this Easel serves passkeys for.`,
    cause,
  );

/** What every answer must match: its stored challenge, a page this Easel serves passkeys for, the RP ID, and user verification. */
const expectedOf = (deps: PasskeyDeps, challenge: ChallengeRecord) => ({
  expectedChallenge: challenge.challenge,
  expectedOrigin: [...deps.relyingParty.origins],
  expectedRPID: deps.relyingParty.rpId,
  requireUserVerification: true,
});

/** The library's verification when it verified; 400 when it threw or said no. */
async function verified<T extends { verified: boolean }>(verify: () => Promise<T>): Promise<T & { verified: true }> {
  let result: T;
  try {
    result = await verify();
  } catch (error) {
    throw notVerified(error);
  }
  if (!result.verified) throw notVerified(undefined);
  return result as T & { verified: true };
}

async function putChallenge(deps: PasskeyDeps, challenge: string, purpose: ChallengeRecord['purpose'], userId?: string): Promise<void> {
  const expiresAt = Math.floor((deps.now?.() ?? new Date()).getTime() / 1000) + CHALLENGE_SECONDS;
  await deps.store.putChallenge({ challenge, purpose, expiresAt, ...(userId ? { userId } : {}) });
}

/** Options for navigator.credentials.create(): a discoverable credential, user verification required, none twice. */
export async function registrationOptions(deps: PasskeyDeps, input: { userId: string }) {
  const [user, passkeys] = await Promise.all([requireUser(deps, input.userId), deps.store.listPasskeysOfUser(input.userId)]);
  const options = await generateRegistrationOptions({
    rpName: deps.relyingParty.rpName,
    rpID: deps.relyingParty.rpId,
    userName: user.email,
    userDisplayName: user.name,
    userID: bytes(user.userId),
    attestationType: 'none',
    supportedAlgorithmIDs: ALGORITHMS,
    timeout: CHALLENGE_SECONDS * 1000,
    excludeCredentials: passkeys.map((passkey) => ({ id: passkey.credentialId, ...(passkey.transports ? { transports: passkey.transports } : {}) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await putChallenge(deps, options.challenge, 'register', user.userId);
  return options;
}

/** Verifies a registration against the user's own challenge and keeps the passkey. */
export async function registerPasskey(
  deps: PasskeyDeps,
  input: { userId: string; response: RegistrationResponseJSON; name?: string; userAgent?: string },
): Promise<PasskeyView> {
  const challenge = await takeChallenge(deps, input.response.response.clientDataJSON, 'register');
  // Another user's challenge is as good as none.
  if (challenge.userId !== input.userId) throw new InvalidRequestError('Unknown or used challenge', 'Start the registration again from the signed-in editor.');
  const { registrationInfo } = await verified(() =>
    verifyRegistrationResponse({
      response: input.response,
      ...expectedOf(deps, challenge),
      supportedAlgorithmIDs: ALGORITHMS,
    }),
  );
  const { credential, credentialDeviceType, credentialBackedUp } = registrationInfo;
  const record: PasskeyRecord = {
    passkeyId: newId('pky'),
    credentialId: credential.id,
    userId: input.userId,
    publicKey: toBase64url(credential.publicKey),
    counter: credential.counter,
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
    name: input.name ?? `Passkey on ${deviceOf(input.userAgent)}`,
    createdAt: (deps.now?.() ?? new Date()).toISOString(),
  };
  const transports = input.response.response.transports ?? credential.transports;
  if (transports?.length) record.transports = [...transports];
  try {
    await deps.store.putPasskey(record);
  } catch (error) {
    if (error instanceof AlreadyExistsError)
      throw new InvalidRequestError('Passkey already registered', 'This passkey is registered already; GET /api/v1/auth/passkeys lists yours.');
    throw error;
  }
  return view(record);
}

/** Options for navigator.credentials.get() with no user named: the authenticator offers its passkeys for this site. */
export async function signInOptions(deps: PasskeyDeps) {
  const options = await generateAuthenticationOptions({ rpID: deps.relyingParty.rpId, userVerification: 'required', timeout: CHALLENGE_SECONDS * 1000 });
  await putChallenge(deps, options.challenge, 'sign-in');
  return options;
}

/** Verifies a sign-in against its stored challenge and the passkey's public key, then issues a session. */
export async function signInWithPasskey(
  deps: PasskeyDeps & { sessions: SessionDeps },
  input: { response: AuthenticationResponseJSON; userAgent?: string; previousToken?: string },
): Promise<IssuedSession> {
  // Both are needed before the signature can be checked; the challenge is taken whatever follows.
  const [challenge, passkey] = await Promise.all([
    takeChallenge(deps, input.response.response.clientDataJSON, 'sign-in'),
    deps.store.getPasskey(input.response.id),
  ]);
  if (!passkey) {
    throw new UnauthorizedError({
      hint: 'This passkey is not registered with this Easel (it may have been removed): sign in with an e-mail code.',
      cause: 'unknown credential',
    });
  }
  const handle = input.response.response.userHandle;
  if (handle !== undefined && Buffer.from(handle, 'base64url').toString('utf8') !== passkey.userId) throw notVerified(new Error('user handle of another user'));
  const { authenticationInfo } = await verified(() =>
    verifyAuthenticationResponse({
      response: input.response,
      ...expectedOf(deps, challenge),
      credential: {
        id: passkey.credentialId,
        publicKey: fromBase64url(passkey.publicKey),
        counter: passkey.counter,
        ...(passkey.transports ? { transports: passkey.transports as never } : {}),
      },
    }),
  );
  const { newCounter, credentialBackedUp } = authenticationInfo;
  const user = requireUser(deps, passkey.userId);
  const prefetched = {
    organization: firstOrganization(deps.sessions, passkey.userId),
    invitations: user.then((found) => myInvitations(deps.sessions, found.email)),
  };
  prefetched.organization.catch(() => undefined);
  prefetched.invitations.catch(() => undefined);
  const [found, counted] = await Promise.all([user, deps.store.recordPasskeyUse(passkey.credentialId, { counter: newCounter, backedUp: credentialBackedUp })]);
  // A count that went backwards is a copied authenticator, or a race lost to a newer sign-in.
  if (!counted) throw notVerified(new Error('signature counter did not move forward'));
  return issueSession(deps.sessions, { user: found, method: 'passkey', userAgent: input.userAgent, previousToken: input.previousToken, prefetched });
}

export async function listPasskeys(deps: Pick<PasskeyDeps, 'store'>, input: { userId: string }): Promise<v.InferOutput<typeof PasskeysResponse>> {
  const passkeys = await deps.store.listPasskeysOfUser(input.userId);
  return { passkeys: passkeys.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)).map(view) };
}

/** 404 unless the passkey is one of the user's. */
export async function deletePasskey(deps: Pick<PasskeyDeps, 'store'>, input: { userId: string; passkeyId: string }): Promise<void> {
  const passkey = (await deps.store.listPasskeysOfUser(input.userId)).find((candidate) => candidate.passkeyId === input.passkeyId);
  if (!passkey || !(await deps.store.deletePasskey(passkey.credentialId, input.userId))) {
    throw new NotFoundError('Passkey not found', 'No passkey of yours has this id; GET /api/v1/auth/passkeys lists them.');
  }
}
