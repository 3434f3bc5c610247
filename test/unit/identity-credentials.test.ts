import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readSessionToken, sessionSetCookie } from '#shared/identity/cookies.ts';
import {
  base58,
  digestsEqual,
  generateApiKey,
  generateSessionToken,
  hashSecret,
  isApiKeyFormat,
  isSessionTokenFormat,
  newId,
} from '#shared/identity/secrets.ts';
import { apiEvent } from '../support/event.ts';

describe('base58', () => {
  it.each([
    [[], ''],
    [[0], '1'],
    [[0, 0, 1], '112'],
    [[0x61], '2g'],
    [[0x62, 0x62, 0x62], 'a3gV'],
    [[...Buffer.from('Hello World!')], '2NEpo7TZRRrLZSi2U'],
  ])('encodes %j as %j (Bitcoin alphabet, leading zeros as 1)', (bytes, expected) => {
    expect(base58(Uint8Array.from(bytes))).toBe(expected);
  });
});

describe('generateApiKey', () => {
  it('is easel_sk_ and the base58 of 24 random bytes', () => {
    // Prepare + Act
    const keys = Array.from({ length: 200 }, generateApiKey);

    // Assess
    for (const key of keys) {
      expect(key).toMatch(/^easel_sk_[1-9A-HJ-NP-Za-km-z]{30,33}$/);
      expect(isApiKeyFormat(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('carries at least 128 bits of randomness', () => {
    // 24 random bytes: the encoded part of the longest keys spans 33 base58 digits (≈ 193 bits).
    const longest = Math.max(...Array.from({ length: 200 }, () => generateApiKey().length - 'easel_sk_'.length));
    expect(longest * Math.log2(58)).toBeGreaterThanOrEqual(128);
  });

  it.each(['', 'easel_sk_', 'easel_sk_0OIl0OIl0OIl0OIl0OIl0OIl0OIl', 'sk_live_abc', 'easel_st_' + 'a'.repeat(40), `easel_sk_${'a'.repeat(60)}`])(
    'refuses %j as a key format',
    (value) => {
      expect(isApiKeyFormat(value)).toBe(false);
    },
  );
});

describe('generateSessionToken', () => {
  it('is easel_st_ and the base58 of 32 random bytes', () => {
    const token = generateSessionToken();
    expect(token).toMatch(/^easel_st_[1-9A-HJ-NP-Za-km-z]{40,44}$/);
    expect(isSessionTokenFormat(token)).toBe(true);
    expect(isSessionTokenFormat(generateApiKey())).toBe(false);
  });
});

describe('hashSecret', () => {
  it('is the SHA-256 of the secret in hex', () => {
    const key = generateApiKey();
    expect(hashSecret(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashSecret(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('compares digests in constant time and refuses different or empty ones', () => {
    const digest = hashSecret('a');
    expect(digestsEqual(digest, hashSecret('a'))).toBe(true);
    expect(digestsEqual(digest, hashSecret('b'))).toBe(false);
    expect(digestsEqual(digest, digest.slice(0, 62))).toBe(false);
    expect(digestsEqual('', '')).toBe(false);
  });
});

describe('newId', () => {
  it('prefixes the record type to 16 random bytes in base58', () => {
    expect(newId('org')).toMatch(/^org_[1-9A-HJ-NP-Za-km-z]{20,22}$/);
    expect(newId('key')).not.toBe(newId('key'));
  });
});

describe('readSessionToken', () => {
  const https = { 'x-forwarded-proto': 'https' };

  it('reads easel.session_token from the cookies API Gateway passes', () => {
    const event = { ...apiEvent({ path: '/api/v1/me' }), cookies: ['theme=dark', 'easel.session_token=abc'] };
    expect(readSessionToken(event)).toBe('abc');
  });

  it('reads a raw Cookie header too', () => {
    expect(readSessionToken(apiEvent({ path: '/', headers: { cookie: 'a=1; easel.session_token=xyz; b=2' } }))).toBe('xyz');
  });

  it('accepts __Secure-easel.session_token over https, preferring it', () => {
    const event = apiEvent({ path: '/', headers: { ...https, cookie: 'easel.session_token=plain; __Secure-easel.session_token=secure' } });
    expect(readSessionToken(event)).toBe('secure');
  });

  it('ignores __Secure-easel.session_token over plain http', () => {
    expect(readSessionToken(apiEvent({ path: '/', headers: { cookie: '__Secure-easel.session_token=secure' } }))).toBeUndefined();
  });

  it.each(['', 'easel.session_token=', 'other=1', 'xeasel.session_token=abc'])('finds no token in %j', (cookie) => {
    expect(readSessionToken(apiEvent({ path: '/', headers: cookie ? { cookie } : {} }))).toBeUndefined();
  });
});

describe('sessionSetCookie', () => {
  it('issues an HttpOnly, SameSite=Lax cookie on the whole site, Secure over https', () => {
    expect(sessionSetCookie('tok', { maxAgeSeconds: 3600, secure: true })).toBe(
      'easel.session_token=tok; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure',
    );
  });

  it('leaves Secure out over plain http, where the browser would drop the cookie', () => {
    expect(sessionSetCookie('tok', { maxAgeSeconds: 10.7, secure: false })).toBe('easel.session_token=tok; Path=/; Max-Age=10; HttpOnly; SameSite=Lax');
  });
});
