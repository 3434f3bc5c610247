/** The editor's sentences for API failures: every code of the contract in words for people, with what to do. */
import { describe, expect, it } from 'vitest';
import { ERROR_CODE_LIST } from '#shared/errors.ts';
import { activityOf, explain } from '#editor/src/io/problem-text.ts';

const ROUTES = [
  '/api/screenshot',
  '/api/tweet/20',
  '/api/image-proxy?url=x',
  '/api/export',
  '/api/v1/assets/upload-url',
  '/api/v1/me',
  '/api/v1/auth/email-code/verify',
  '/api/v1/auth/passkey/verify',
  '/api/v1/auth/passkeys/pky_1',
  '/api/v1/releases',
];
const FALLBACK = explain({ status: 418, code: 'no_such_code', message: '' }).message;

describe('explain', () => {
  it.each(ERROR_CODE_LIST.flatMap((code) => ROUTES.map((path) => [code, path] as const)))(
    'gives %s on %s its own sentence and advice, without API words',
    (code, path) => {
      // Act
      const { message, advice } = explain({ status: 400, code, message: 'Upstream request failed', path });

      // Assess
      expect(message).not.toBe(FALLBACK);
      expect(`${message} ${advice}`).not.toContain(code);
      expect(message).toMatch(/^[A-Z“].*\.$/);
      expect(advice).toMatch(/^[A-Z].*\.$/);
    },
  );

  it.each([
    ['Malformed URL', 'That is not a web address Easel can capture.'],
    ['Target address not allowed', 'That address is on a private or local network, which Easel does not capture.'],
    ['Target host does not resolve', 'No website answers at that address.'],
  ])('tells apart the invalid_url of a capture answered with "%s"', (apiMessage, sentence) => {
    expect(explain({ status: 400, code: 'invalid_url', message: apiMessage, path: '/api/screenshot' }).message).toBe(sentence);
  });

  it('points a rate-limited capture at the countdown, and names the wait elsewhere', () => {
    expect(explain({ status: 429, code: 'rate_limited', message: '', path: '/api/screenshot', retryAfter: 41 }).advice).toBe(
      'You can capture again when the countdown ends.',
    );
    expect(explain({ status: 429, code: 'workspace_quota_exceeded', message: '', path: '/api/v1/assets/upload-url', retryAfter: 41 }).advice).toMatch(
      /^Try again in 41 s,/,
    );
  });

  it('names the plan an entitlement needs, from the envelope', () => {
    const failure = { status: 403, code: 'workspace_feature_not_entitled', message: '', path: '/api/v1/assets/x', extra: { requiredPlan: 'pro' } };
    expect(explain(failure).advice).toBe('Ask an owner of the organization to move to the pro plan.');
  });

  it('gives the time to report an internal error with, from the clock it is handed', () => {
    const failure = { status: 500, code: 'internal_error', message: '', path: '/api/export' };
    expect(explain(failure, new Date('2026-03-01T10:20:30Z')).advice).toContain('2026-03-01 10:20 UTC');
  });

  it('covers the failures the client itself makes: no answer, and an answer that is not an envelope', () => {
    expect(explain({ status: 0, code: 'network_error', message: '', path: '/api/export' }).message).toBe(
      'Easel could not be reached, so it could not convert the export.',
    );
    expect(explain({ status: 502, code: 'unexpected_response', message: '' }).message).toContain('(HTTP 502)');
  });

  it('says reading releases was refused as a role without the permission, and a release gone as gone', () => {
    expect(explain({ status: 403, code: 'forbidden', message: 'Forbidden', path: '/api/v1/releases' })).toEqual({
      message: 'Your role in this organization cannot read its releases.',
      advice: 'Choose another organization in the account menu, or ask an owner for the artifact:read permission.',
    });
    expect(explain({ status: 404, code: 'not_found', message: 'Release not found', path: '/api/v1/releases/r/shots' }).message).toBe(
      'That release is no longer in this workspace.',
    );
  });
});

describe('explain, signing in and in the account menu', () => {
  it.each([
    ['/api/v1/auth/email-code/verify', 400, 'invalid_request', 'Wrong or expired code', 'That code is wrong or has expired.'],
    ['/api/v1/auth/email-code/verify', 400, 'invalid_request', 'Too many wrong codes', 'That code has had too many wrong tries.'],
    ['/api/v1/auth/email-code/verify', 403, 'forbidden', 'Forbidden', 'This address has no Easel account.'],
    ['/api/v1/auth/passkey/verify', 400, 'invalid_request', 'Unknown or used challenge', 'That passkey prompt has expired or was used already.'],
    ['/api/v1/auth/passkey/verify', 401, 'unauthorized', 'Unauthorized', 'This passkey is not on any Easel account.'],
    ['/api/v1/auth/passkeys', 400, 'invalid_request', 'Passkey already registered', 'That passkey is on your account already.'],
    ['/api/v1/auth/passkeys/pky_1', 401, 'unauthorized', 'Unauthorized', 'You are no longer signed in.'],
    ['/api/v1/auth/sessions/ses_1', 404, 'not_found', 'Session not found', 'That is no longer on your account.'],
    ['/api/v1/auth/invitations/inv_1/accept', 400, 'invalid_request', 'Invitation expired', 'That invitation has expired.'],
  ])('answers %s\'s %s %s "%s" with its own words', (path, status, code, apiMessage, sentence) => {
    // Act
    const { message } = explain({ status, code, message: apiMessage, path });

    // Assess
    expect(message).toBe(sentence);
  });

  it('says how long a sign-in limit lasts, in minutes past a minute and a half', () => {
    // Act
    const short = explain({ status: 429, code: 'rate_limited', message: '', path: '/api/v1/auth/email-code', retryAfter: 41 });
    const long = explain({ status: 429, code: 'rate_limited', message: '', path: '/api/v1/auth/email-code', retryAfter: 1_790 });

    // Assess
    expect([short.advice, long.advice]).toEqual(['Try again in 41 s.', 'Try again in 30 minutes.']);
  });

  it('asks to sign in again, never for an API key, when a save finds no session', () => {
    // Act
    const { message, advice } = explain({ status: 401, code: 'unauthorized', message: 'Unauthorized', path: '/api/v1/assets/upload-url' });

    // Assess
    expect({ message, advice }).toEqual({
      message: 'You are not signed in, so Easel could not save to the workspace.',
      advice: 'Sign in (top right), then try again.',
    });
  });
});

describe('activityOf', () => {
  it.each([
    ['/api/screenshot', 'capture'],
    ['/api/tweet/1', 'tweet'],
    ['/api/image-proxy?url=https%3A%2F%2Fpbs.twimg.com', 'media'],
    ['/api/export', 'export'],
    ['/api/v1/assets/abc/complete', 'save'],
    ['/api/v1/me', 'sign-in'],
    ['/api/v1/auth/email-code/verify', 'sign-in'],
    ['/api/v1/auth/passkey/options', 'sign-in'],
    ['/api/v1/auth/sessions/ses_1', 'account'],
    ['/api/v1/organizations/org_1/activate', 'account'],
    ['/api/v1/releases?limit=20', 'releases'],
    ['/api/v1/releases/abc/shots', 'releases'],
    [undefined, 'other'],
  ])('reads %s as %s', (path, activity) => {
    expect(activityOf(path)).toBe(activity);
  });
});
