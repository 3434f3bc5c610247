import { describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config.ts';
import { EMAIL_CODE_DIGITS, generateEmailCode, hashAddress, hashEmailCode } from '#shared/identity/credentials.ts';
import { deviceOf } from '#shared/services/sign-in/devices.ts';

const BASE = {
  PUBLIC_BASE_URL: 'https://api.easel.test',
  WORKSPACE_TABLE: 'w',
  CACHE_TABLE: 'c',
  RATE_TABLE: 'r',
  ASSETS_BUCKET: 'a',
  CACHE_BUCKET: 'b',
  DELETION_QUEUE_URL: 'https://sqs.test/q',
  MAIL_QUEUE_URL: 'https://sqs.test/mail',
  SHOT_QUEUE_URL: 'https://sqs.test/shots',
  AWS_REGION: 'us-east-1',
};

describe('parseConfig: sign-in settings', () => {
  it('defaults to invitation only, a week-long session, no mailer, and passkeys of the API’s host', () => {
    expect(parseConfig({ ...BASE, EDITOR_ORIGINS: 'https://editor.easel.test,https://elsewhere.example' }).signIn).toEqual({
      allowSignUp: false,
      sessionHours: 168,
      mail: undefined,
      passkeys: { rpId: 'api.easel.test', rpName: 'Easel', origins: ['https://api.easel.test'] },
    });
  });

  it('gives a loopback base URL passkeys of localhost on the same port, which browsers allow', () => {
    expect(parseConfig({ ...BASE, PUBLIC_BASE_URL: 'http://127.0.0.1:3000' }).signIn.passkeys).toEqual({
      rpId: 'localhost',
      rpName: 'Easel',
      origins: ['http://localhost:3000'],
    });
  });

  it('keeps the editor origins under a parent RP ID', () => {
    const settings = parseConfig({ ...BASE, EDITOR_ORIGINS: 'https://editor.easel.test', WEBAUTHN_RP_ID: 'easel.test' }).signIn.passkeys;
    expect(settings.origins).toEqual(['https://api.easel.test', 'https://editor.easel.test']);
  });

  it.each([
    [{ WEBAUTHN_RP_ID: '10.0.0.5' }, /WEBAUTHN_RP_ID must be a domain name/],
    [{ WEBAUTHN_ORIGINS: 'https://other.example' }, /not an origin under api\.easel\.test/],
    [{ EMAIL_FROM: 'no-reply@easel.test', EMAIL_OUTBOX: '/tmp/outbox' }, /not both/],
    [{ EMAIL_FROM: 'not an address' }, /EMAIL_FROM must be an address/],
    [{ ALLOW_SIGN_UP: 'yes' }, /ALLOW_SIGN_UP must be true or false/],
    [{ SESSION_HOURS: '721' }, /SESSION_HOURS must be an integer from 1 to 720/],
    [{ EMAIL_OUTBOX: '/tmp/outbox', AWS_LAMBDA_FUNCTION_NAME: 'f' }, /EMAIL_OUTBOX is a local-only setting, refused on AWS Lambda/],
  ])('refuses %j at cold start', (env, message) => {
    expect(() => parseConfig({ ...BASE, ...env })).toThrow(message);
  });

  it('reads SES from EMAIL_FROM, and sign-up and lifetime when set', () => {
    const { signIn } = parseConfig({ ...BASE, EMAIL_FROM: 'Easel <no-reply@easel.test>', ALLOW_SIGN_UP: 'true', SESSION_HOURS: '24' });
    expect(signIn).toMatchObject({ allowSignUp: true, sessionHours: 24, mail: { kind: 'ses', from: 'Easel <no-reply@easel.test>' } });
  });
});

describe('e-mail codes', () => {
  it('are six digits, drawn over the whole range', () => {
    const codes = Array.from({ length: 2000 }, generateEmailCode);
    expect(codes.every((code) => new RegExp(`^\\d{${EMAIL_CODE_DIGITS}}$`).test(code))).toBe(true);
    expect(new Set(codes.map((code) => code[0])).size).toBe(10);
    expect(new Set(codes).size).toBeGreaterThan(1990);
  });

  it('hash per address: one code hashes differently for two addresses, and the same for one address however written', () => {
    expect(hashEmailCode(hashAddress('a@example.com'), '123456')).not.toBe(hashEmailCode(hashAddress('b@example.com'), '123456'));
    expect(hashAddress(' A@Example.com ')).toBe(hashAddress('a@example.com'));
  });
});

describe('deviceOf', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/153.0.0.0 Safari/537.36', 'Chrome 153 on Linux'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari 17 on macOS'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari 17 on iOS',
    ],
    [undefined, 'Unknown device'],
    ['curl/8.5.0', 'Unknown device'],
  ])('names %s as %s', (userAgent, device) => {
    expect(deviceOf(userAgent)).toBe(device);
  });
});
