/** Sessions a sign-in issues and their user sees and ends; a sign-in always issues a new token and ends the browser's previous session. */
import type * as v from 'valibot';
import { NotFoundError } from '#shared/errors.ts';
import { generateSessionToken, hashSecret, isSessionTokenFormat, newId } from '#shared/identity/credentials.ts';
import type { SessionRecord, UserRecord } from '#shared/schemas/identity.ts';
import type { MyInvitation, SessionState, SignedIn } from '#shared/schemas/sign-in.ts';
import { userView } from '#shared/services/shell.ts';
import { myInvitations, type InvitationReads } from '#shared/services/sign-in/invitations.ts';
import type { MembershipStore } from '#shared/store/memberships.ts';
import type { OrganizationStore } from '#shared/store/organizations.ts';
import type { SessionStore } from '#shared/store/sessions.ts';
import type { UserStore } from '#shared/store/users.ts';

/** The editor's page opens often: its last-seen stamp is written at most this often. */
export const LAST_SEEN_INTERVAL_SECONDS = 5 * 60;
const USER_AGENT_MAX = 512;

export type SessionStores = Pick<SessionStore, 'putSession' | 'getSession' | 'endSession' | 'listSessionsOfUser' | 'touchSession'> &
  Pick<UserStore, 'getUser'> &
  Pick<MembershipStore, 'listMembershipsOfUser'> &
  Pick<OrganizationStore, 'getOrganizations'> &
  InvitationReads;

export interface SessionDeps {
  store: SessionStores;
  sessionHours: number;
  now?: () => Date;
}

export interface IssuedSession {
  /** The cookie's value: shown once, stored only as its hash. */
  token: string;
  maxAgeSeconds: number;
  body: SignedIn;
}

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();

export function sessionView(session: Pick<SessionRecord, 'sessionId' | 'createdAt' | 'expiresAt' | 'method'>) {
  return { id: session.sessionId, createdAt: session.createdAt, expiresAt: iso(session.expiresAt), method: session.method ?? null };
}

/** What a sign-in and the session probe answer: the user, the session and the address's pending invitations. */
function signedIn(user: UserRecord, session: SessionRecord, invitations: MyInvitation[]): SignedIn {
  return {
    signedIn: true,
    user: userView(user),
    session: sessionView(session),
    activeOrganizationId: session.activeOrganizationId ?? null,
    invitations: invitations.filter((invitation) => invitation.status === 'pending'),
  };
}

/** The stored key of a well-formed token; undefined for none or a malformed one, which no session has. */
const storedKeyOf = (token: string | undefined) => (token && isSessionTokenFormat(token) ? hashSecret(token) : undefined);

/** The organization a new session acts in: the first by name of the user's active ones. */
export async function firstOrganization(deps: SessionDeps, userId: string): Promise<string | undefined> {
  const memberships = await deps.store.listMembershipsOfUser(userId);
  if (memberships.length === 0) return undefined;
  const organizations = await deps.store.getOrganizations(memberships.map((membership) => membership.organizationId));
  return organizations
    .filter((organization) => organization.deletionState === 'active')
    .sort((a, b) => a.name.localeCompare(b.name) || a.organizationId.localeCompare(b.organizationId))[0]?.organizationId;
}

/** Issues a session for a user just proved, and ends `previousToken`'s so a planted or stale cookie cannot outlive the sign-in. */
export async function issueSession(
  deps: SessionDeps,
  input: {
    user: UserRecord;
    method: 'email-code' | 'passkey';
    userAgent?: string;
    previousToken?: string;
    activeOrganizationId?: string;
    /** Read while the sign-in was checked, so a warm sign-in waits for fewer round trips. */
    prefetched?: { invitations?: Promise<MyInvitation[]>; organization?: Promise<string | undefined> };
  },
): Promise<IssuedSession> {
  const now = deps.now?.() ?? new Date();
  const [activeOrganizationId, invitations] = await Promise.all([
    input.activeOrganizationId ?? input.prefetched?.organization ?? firstOrganization(deps, input.user.userId),
    input.prefetched?.invitations ?? myInvitations(deps, input.user.email),
  ]);
  const token = generateSessionToken();
  const maxAgeSeconds = deps.sessionHours * 3600;
  const record: SessionRecord = {
    sessionId: newId('ses'),
    tokenHash: hashSecret(token),
    userId: input.user.userId,
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + maxAgeSeconds,
    origin: 'sign-in',
    method: input.method,
    lastSeenAt: now.toISOString(),
  };
  if (activeOrganizationId) record.activeOrganizationId = activeOrganizationId;
  if (input.userAgent) record.userAgent = input.userAgent.slice(0, USER_AGENT_MAX);
  const previous = storedKeyOf(input.previousToken);
  await Promise.all([deps.store.putSession(record), previous ? deps.store.endSession(previous) : undefined]);
  return { token, maxAgeSeconds, body: signedIn(input.user, record, invitations) };
}

/** GET /api/v1/auth/session: who the cookie signs in, or `signedIn: false` (`clear`: a stale cookie); never a 401, so a page may always ask. */
export async function sessionState(
  deps: SessionDeps,
  input: { token: string | undefined },
): Promise<{ body: v.InferOutput<typeof SessionState>; clear: boolean }> {
  if (!input.token) return { body: { signedIn: false }, clear: false };
  const tokenHash = storedKeyOf(input.token);
  const session = tokenHash ? await deps.store.getSession(tokenHash) : undefined;
  const user = session && (await deps.store.getUser(session.userId));
  if (!session || !user) return { body: { signedIn: false }, clear: true };
  const [invitations] = await Promise.all([myInvitations(deps, user.email), deps.store.touchSession(session.tokenHash, LAST_SEEN_INTERVAL_SECONDS)]);
  return { body: signedIn(user, session, invitations), clear: false };
}

/** Ends one of the user's sessions; 404 when no live session of theirs has the id. Returns whether it was the current one. */
export async function endSession(deps: SessionDeps, input: { userId: string; sessionId: string; currentSessionId: string }): Promise<{ current: boolean }> {
  const session = (await deps.store.listSessionsOfUser(input.userId)).find((candidate) => candidate.sessionId === input.sessionId);
  if (!session || !(await deps.store.endSession(session.tokenHash))) {
    throw new NotFoundError('Session not found', 'No live session of yours has this id; GET /api/v1/auth/sessions lists them.');
  }
  return { current: session.sessionId === input.currentSessionId };
}

/** Ends every session of the user but the current one; returns how many ended. */
export async function endOtherSessions(deps: SessionDeps, input: { userId: string; sessionId: string }): Promise<{ ended: number }> {
  const others = (await deps.store.listSessionsOfUser(input.userId)).filter((session) => session.sessionId !== input.sessionId);
  const ended = await Promise.all(others.map((session) => deps.store.endSession(session.tokenHash)));
  return { ended: ended.filter(Boolean).length };
}

/** Ends the session the cookie holds, if any: signing out twice, or with an expired cookie, is not an error. */
export async function signOut(deps: Pick<SessionDeps, 'store'>, input: { token: string | undefined }): Promise<void> {
  const tokenHash = storedKeyOf(input.token);
  if (tokenHash) await deps.store.endSession(tokenHash);
}
