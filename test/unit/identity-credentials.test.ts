import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readSessionCookie, sessionSetCookie } from '#shared/http/cookies.ts';
import {
  base58,
  digestsEqual,
  generateApiKey,
  generateSessionToken,
  hashSecret,
  isApiKeyFormat,
  isSessionTokenFormat,
  newId,
} from '#shared/identity/credentials.ts';
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

  it.each(['', 'easel_sk_', 'easel_sk_0OIl0OIl0OIl0OIl0OIl0OIl0OIl', 'sk_live_abc', `easel_st_${'a'.repeat(40)}`, `easel_sk_${'a'.repeat(60)}`])(
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

describe('readSessionCookie', () => {
  const https = { 'x-forwarded-proto': 'https' };
  const read = (cookie: string, headers: Record<string, string> = {}) => readSessionCookie(apiEvent({ path: '/', headers: { ...headers, cookie } }));

  it('reads easel.session_token from the cookies API Gateway passes', () => {
    const event = { ...apiEvent({ path: '/api/v1/me' }), cookies: ['theme=dark', 'easel.session_token=abc'] };
    expect(readSessionCookie(event)).toEqual({ kind: 'token', name: 'easel.session_token', token: 'abc' });
  });

  it('reads a raw Cookie header too', () => {
    expect(read('a=1; easel.session_token=xyz; b=2')).toEqual({ kind: 'token', name: 'easel.session_token', token: 'xyz' });
  });

  it.each([
    ['easel.session_token over http', 'easel.session_token=t', {}, 'easel.session_token'],
    ['easel.session_token over https (the contract name)', 'easel.session_token=t', https, 'easel.session_token'],
    ['__Secure-easel.session_token over https', '__Secure-easel.session_token=t', https, '__Secure-easel.session_token'],
    ['__Host-easel.session_token over https', '__Host-easel.session_token=t', https, '__Host-easel.session_token'],
    ['the same token under two accepted names', 'easel.session_token=t; __Secure-easel.session_token=t', https, '__Secure-easel.session_token'],
    ['the same token twice under one name', 'easel.session_token=t; easel.session_token=t', {}, 'easel.session_token'],
  ])('accepts %s', (_case, cookie, headers, name) => {
    expect(read(cookie, headers)).toEqual({ kind: 'token', name, token: 't' });
  });

  it.each([
    ['easel.session_token', 'easel.session_token=planted'],
    ['__Secure-easel.session_token', '__Secure-easel.session_token=planted'],
    ['both', 'easel.session_token=planted; __Secure-easel.session_token=other'],
  ])('lets __Host-easel.session_token alone decide over https, ignoring %s that a sibling subdomain could plant', (_case, planted) => {
    expect(read(`${planted}; __Host-easel.session_token=real`, https)).toEqual({ kind: 'token', name: '__Host-easel.session_token', token: 'real' });
    expect(read(`__Host-easel.session_token=real; ${planted}`, https)).toEqual({ kind: 'token', name: '__Host-easel.session_token', token: 'real' });
  });

  it.each([
    ['two easel.session_token values over http', 'easel.session_token=a; easel.session_token=b', {}, ['easel.session_token']],
    ['two easel.session_token values over https', 'easel.session_token=a; easel.session_token=b', https, ['easel.session_token']],
    [
      '__Secure- and plain names with different tokens',
      '__Secure-easel.session_token=a; easel.session_token=b',
      https,
      ['__Secure-easel.session_token', 'easel.session_token'],
    ],
    ['two __Host- values', '__Host-easel.session_token=a; __Host-easel.session_token=b', https, ['__Host-easel.session_token']],
  ])('refuses %s as ambiguous', (_case, cookie, headers, names) => {
    expect(read(cookie, headers)).toEqual({ kind: 'ambiguous', names });
  });

  it.each(['__Secure-easel.session_token=secure', '__Host-easel.session_token=host'])('ignores %s over plain http, where no browser sets it', (cookie) => {
    expect(read(cookie)).toEqual({ kind: 'none' });
  });

  it.each([
    ['spaces and tabs around the name and value', ' \teasel.session_token = t \t; other=1', 't'],
    ['stray separators and pairs without a value', ';; =x; junk; easel.session_token=t;', 't'],
    ['a percent sign that is not an escape, kept as sent', 'easel.session_token=t%zz', 't%zz'],
  ])('reads the token through %s without throwing', (_case, cookie, token) => {
    expect(read(cookie)).toEqual({ kind: 'token', name: 'easel.session_token', token });
  });

  it('ignores empty values, so they neither count as a session nor make a request ambiguous', () => {
    expect(read('easel.session_token=; easel.session_token=t')).toEqual({ kind: 'token', name: 'easel.session_token', token: 't' });
  });

  it.each(['', 'easel.session_token=', 'other=1', 'xeasel.session_token=abc', 'easel.session_token', ';;=;', '=easel.session_token=abc', '\u0000\uffff;=;%'])(
    'finds no token in %j',
    (cookie) => {
      expect(readSessionCookie(apiEvent({ path: '/', headers: cookie ? { cookie } : {} }))).toEqual({ kind: 'none' });
    },
  );
});

describe('sessionSetCookie', () => {
  it('issues a __Host- cookie over https: Secure, on the whole site, without Domain, HttpOnly, SameSite=Lax', () => {
    expect(sessionSetCookie('tok', { maxAgeSeconds: 3600, secure: true })).toBe(
      '__Host-easel.session_token=tok; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
  });

  it('leaves Secure out over plain http, where the browser would drop the cookie', () => {
    expect(sessionSetCookie('tok', { maxAgeSeconds: 10.7, secure: false })).toBe('easel.session_token=tok; Max-Age=10; Path=/; HttpOnly; SameSite=Lax');
  });
});
