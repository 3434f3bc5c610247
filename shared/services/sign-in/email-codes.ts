/** E-mail codes: the API answers alike for every address and the worker mails only where one may sign in, so no answer tells who has an account. */
import { ForbiddenError, InvalidRequestError, RateLimitedError } from '#shared/errors.ts';
import { digestsEqual, generateEmailCode, hashAddress, hashEmailCode, normalizeEmail } from '#shared/identity/credentials.ts';
import { rateLimitHeaders, type RateLimiter, type RateLimitRule } from '#shared/rate-limiter.ts';
import type { EmailCodeVerifyRequest } from '#shared/schemas/sign-in.ts';
import { accountFor, mayReceiveCode, type AccountDeps } from '#shared/services/sign-in/accounts.ts';
import { invitationViews } from '#shared/services/sign-in/invitations.ts';
import { issueSession, type IssuedSession, type SessionDeps } from '#shared/services/sign-in/sessions.ts';
import type { EmailCodeStore } from '#shared/store/email-codes.ts';
import type { SignInMailQueue, SignInMailRequest } from '#shared/store/mail-queue.ts';
import type { Mailer } from '#shared/store/mailers.ts';

export const CODE_SECONDS = 10 * 60;
export const CODE_TRIES = 5;
/** Per address, besides each route's per-IP limit: codes asked for, and codes tried whatever the code. */
export const ADDRESS_LIMITS = {
  send: { limit: 5, windowSeconds: 3600 },
  verify: { limit: 10, windowSeconds: 3600 },
} as const satisfies Record<string, RateLimitRule>;

async function limitAddress(limiter: RateLimiter, what: keyof typeof ADDRESS_LIMITS, addressHash: string): Promise<void> {
  const rule = ADDRESS_LIMITS[what];
  const decision = await limiter.consume({ key: `${what}EmailCode#address#${addressHash}`, ...rule });
  if (!decision.allowed) {
    throw new RateLimitedError({ ...rule, retryAfter: decision.retryAfterSeconds, headers: rateLimitHeaders(decision), per: 'e-mail address' });
  }
}

/** POST /api/v1/auth/email-code: the same answer for every address. */
export async function requestEmailCode(deps: { limiter: RateLimiter; queue: Pick<SignInMailQueue, 'enqueue'>; now?: () => Date }, input: { email: string }) {
  const email = normalizeEmail(input.email);
  await limitAddress(deps.limiter, 'send', hashAddress(email));
  await deps.queue.enqueue({ email, requestedAt: (deps.now?.() ?? new Date()).toISOString() });
  return { email, expiresInSeconds: CODE_SECONDS, attempts: CODE_TRIES };
}

export interface CodeMailDeps {
  accounts: AccountDeps;
  codes: Pick<EmailCodeStore, 'putEmailCode'>;
  mailer: Mailer;
  /** Named in the message, so a reader knows which Easel asks. */
  site: string;
  now?: () => Date;
}

/** The mail worker's rule for one queued address. Nothing about the outcome goes back to the caller. */
export async function sendSignInCode(deps: CodeMailDeps, message: SignInMailRequest): Promise<'sent' | 'no-account' | 'stale'> {
  const now = deps.now?.() ?? new Date();
  if (now.getTime() - Date.parse(message.requestedAt) > CODE_SECONDS * 1000) return 'stale';
  const email = normalizeEmail(message.email);
  if (!(await mayReceiveCode(deps.accounts, email))) return 'no-account';
  const code = generateEmailCode();
  const addressHash = hashAddress(email);
  // Stored before it is sent: a code that fails to send is only ever replaced.
  await deps.codes.putEmailCode({
    addressHash,
    codeHash: hashEmailCode(addressHash, code),
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + CODE_SECONDS,
  });
  await deps.mailer.send({
    to: email,
    subject: `Your Easel sign-in code: ${code}`,
    text: [
      `Your code to sign in to Easel at ${deps.site}:`,
      '',
      `    ${code}`,
      '',
      `It works once, within ${CODE_SECONDS / 60} minutes. If you did not ask for it, ignore this message: nobody can sign in without the code.`,
    ].join('\n'),
  });
  return 'sent';
}

const WRONG = ['Wrong or expired code', 'Check the code in the latest e-mail, or ask for a new one: a code works once, within 10 minutes.'] as const;

/** POST /api/v1/auth/email-code/verify: the code, then the account, then a new session. */
export async function verifyEmailCode(
  deps: { limiter: RateLimiter; codes: Pick<EmailCodeStore, 'countEmailCodeTry' | 'useEmailCode'>; accounts: AccountDeps; sessions: SessionDeps },
  input: EmailCodeVerifyRequest & { userAgent?: string; previousToken?: string },
): Promise<IssuedSession> {
  const email = normalizeEmail(input.email);
  const addressHash = hashAddress(email);
  // The limit, the try and the address's invitations at once: a try refused by the limit is spent all the same.
  // The invitations are read once, for the account and the answer.
  const records = deps.sessions.store.listInvitationsOfEmail(email);
  const invitations = records.then((found) => invitationViews(deps.sessions, found));
  invitations.catch(() => undefined);
  const [, stored] = await Promise.all([limitAddress(deps.limiter, 'verify', addressHash), deps.codes.countEmailCodeTry(addressHash, CODE_TRIES)]);
  if (stored === 'spent') throw new InvalidRequestError('Too many wrong codes', 'This code took its last try: ask for a new code.');
  const codeHash = hashEmailCode(addressHash, input.code);
  if (stored === 'none' || !digestsEqual(stored.codeHash, codeHash)) throw new InvalidRequestError(...WRONG);
  // The account is looked up (or made, idempotently) while the code is marked used; no session unless it was.
  const [used, account] = await Promise.all([
    deps.codes.useEmailCode(addressHash, codeHash),
    accountFor(deps.accounts, { email, invitations: records, ...(input.name ? { name: input.name } : {}) }),
  ]);
  if (!used) throw new InvalidRequestError(...WRONG);
  if (!account) {
    // Only someone holding a code mailed to the address gets here: this tells no stranger anything.
    throw new ForbiddenError('This address has no Easel account and sign-up is by invitation: ask someone in your organization to invite you.');
  }
  return issueSession(deps.sessions, {
    user: account.user,
    method: 'email-code',
    userAgent: input.userAgent,
    previousToken: input.previousToken,
    activeOrganizationId: account.activeOrganizationId,
    prefetched: { invitations },
  });
}
