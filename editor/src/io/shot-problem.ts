/**
 * A failed shot in words: what the capture met, as problem-text.ts says it for a capture, and
 * what to do about it, which for a shot is done in its run (its options live in CI, not here).
 */
import { explain } from './problem-text.ts';
import type { Explanation } from './failure.ts';
import type { ShotError } from '../model/releases.ts';

/** Failures of the moment rather than of the shot: the same shot may well succeed next time. */
const PASSING = new Set(['upstream_timeout', 'upstream_unavailable', 'upstream_failed', 'internal_error', 'rate_limited']);

/** The worker's own failures (services/shots/login.ts), which a capture never answers. */
const LOGIN: Readonly<Record<string, Explanation>> = {
  'Login secret not found': {
    message: 'The login this page needs is missing from the secret store.',
    advice: 'Store the source app’s secret (Details names it), then run the shot again.',
  },
  'Login secret unusable': {
    message: 'The login secret for this page is not in the shape Easel reads.',
    advice: 'Store it again as Details says, then run the shot again.',
  },
};

export function explainShot(error: Pick<ShotError, 'status' | 'code' | 'message'>): Explanation {
  const login = Object.hasOwn(LOGIN, error.message) ? LOGIN[error.message] : undefined;
  if (login) return login;
  const { message } = explain({ status: error.status, code: error.code, message: error.message, path: '/api/screenshot' });
  return {
    message,
    advice: PASSING.has(error.code) ? 'Run the release’s shots again.' : 'Change the shot in its run (Details names what), then run it again.',
  };
}
