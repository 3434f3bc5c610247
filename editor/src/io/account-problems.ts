/**
 * The failures of signing in and of the account menu in words for people. Several share a code
 * (a wrong code and a replayed passkey prompt are both invalid_request), so the API's message tells them apart.
 */
import type { Explanation, Failure } from './failure.ts';

/** The sign-in routes' refusals of invalid_request, by the envelope's message. */
const REFUSED: Readonly<Record<string, Explanation>> = {
  'Wrong or expired code': {
    message: 'That code is wrong or has expired.',
    advice: 'Type the code of the latest e-mail, or ask for a new one: a code works once, within 10 minutes.',
  },
  'Too many wrong codes': { message: 'That code has had too many wrong tries.', advice: 'Ask for a new code.' },
  'Unknown or used challenge': { message: 'That passkey prompt has expired or was used already.', advice: 'Try the passkey again.' },
  'Passkey not verified': {
    message: 'Easel could not verify that passkey.',
    advice: 'Try again, or sign in with an e-mail code; a passkey works only at the address it was added on.',
  },
  'Unreadable passkey answer': { message: 'Easel could not read the passkey’s answer.', advice: 'Try again, or sign in with an e-mail code.' },
  'Passkey already registered': { message: 'That passkey is on your account already.', advice: 'Sign in with it next time; the list shows your passkeys.' },
  'Invitation expired': { message: 'That invitation has expired.', advice: 'Ask someone in the organization for a new one.' },
  'Invitation revoked': { message: 'That invitation was withdrawn.', advice: 'Ask someone in the organization for a new one.' },
  'Invitation already accepted': { message: 'You joined that organization already.', advice: 'Choose it under Organization.' },
  'Invitation no longer pending': {
    message: 'That invitation was withdrawn or expired a moment ago.',
    advice: 'Ask someone in the organization for a new one.',
  },
  'Organization unavailable': { message: 'That organization is being deleted.', advice: 'It can no longer be joined.' },
};

/** Where one signs in with a passkey: its refusal of an unknown credential means the passkey was removed. */
const PASSKEY_SIGN_IN = '/api/v1/auth/passkey/verify';
/** Where a code signs in: its refusal of an address without an account is the invitation-only rule. */
const CODE_SIGN_IN = '/api/v1/auth/email-code/verify';

/** "in 40 s", "in 12 minutes": a limit per address lasts an hour. */
const after = (seconds: number | undefined) =>
  seconds === undefined || seconds <= 0 ? 'in a few minutes' : seconds > 90 ? `in ${Math.ceil(seconds / 60)} minutes` : `in ${Math.ceil(seconds)} s`;

/** What to say of `failure` met while signing in or in the account menu; undefined where the general words fit. */
export function accountProblem(failure: Failure, activity: 'sign-in' | 'account'): Explanation | undefined {
  const route = failure.path?.split('?')[0];
  switch (failure.code) {
    case 'invalid_request':
      return Object.hasOwn(REFUSED, failure.message) ? REFUSED[failure.message] : undefined;
    case 'unauthorized':
      if (route === PASSKEY_SIGN_IN) {
        return {
          message: 'This passkey is not on any Easel account.',
          advice: 'It may have been removed from yours: sign in with an e-mail code, then add it again from the account menu.',
        };
      }
      return activity === 'sign-in'
        ? { message: 'You are not signed in.', advice: 'Sign in with a passkey or an e-mail code.' }
        : { message: 'You are no longer signed in.', advice: 'Sign in again: the session was ended, or its time ran out.' };
    case 'forbidden':
      return route === CODE_SIGN_IN
        ? { message: 'This address has no Easel account.', advice: 'Easel is by invitation here: ask someone in your organization to invite you.' }
        : undefined;
    case 'not_found':
      return activity === 'account'
        ? { message: 'That is no longer on your account.', advice: 'Close the menu and open it again to see the list as it is.' }
        : undefined;
    case 'rate_limited':
      return activity === 'sign-in' ? { message: 'Too many sign-in attempts for now.', advice: `Try again ${after(failure.retryAfter)}.` } : undefined;
    default:
      return undefined;
  }
}
