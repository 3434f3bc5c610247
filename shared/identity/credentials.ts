/**
 * Credentials: API keys, session tokens and the identifiers of stored records. Secrets are
 * shown once at creation and stored only as SHA-256 hashes; a lookup hashes what the caller
 * sent and reads the record by that hash.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Bitcoin-alphabet base58 (no 0, O, I, l): unambiguous when read aloud or copied by hand. */
export function base58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  // Leading zero bytes are kept as leading '1's, as in every base58 implementation.
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = '1' + out;
  }
  return out;
}

export const API_KEY_PREFIX = 'easel_sk_';
export const SESSION_TOKEN_PREFIX = 'easel_st_';
/** 24 random bytes: 192 bits, well above the 128 the design asks for. */
const API_KEY_BYTES = 24;
const SESSION_TOKEN_BYTES = 32;
// base58 of n bytes has at most ceil(n * 8 / log2(58)) characters, fewer with leading zero bytes only rarely.
const API_KEY_FORMAT = /^easel_sk_[1-9A-HJ-NP-Za-km-z]{24,33}$/;
const SESSION_TOKEN_FORMAT = /^easel_st_[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** A new API key: `easel_sk_` and base58 of 24 random bytes. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + base58(randomBytes(API_KEY_BYTES));
}

/** A new session token: `easel_st_` and base58 of 32 random bytes. */
export function generateSessionToken(): string {
  return SESSION_TOKEN_PREFIX + base58(randomBytes(SESSION_TOKEN_BYTES));
}

/** Whether a string can be an API key at all; anything else is refused without a database read. */
export function isApiKeyFormat(value: string): boolean {
  return API_KEY_FORMAT.test(value);
}

/** Whether a string can be a session token at all; anything else is refused without a database read. */
export function isSessionTokenFormat(value: string): boolean {
  return SESSION_TOKEN_FORMAT.test(value);
}

/** SHA-256 of a secret, hex: what the table stores and is keyed by. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time equality of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** A new public identifier: a type prefix and base58 of 16 random bytes (`org_…`, `key_…`). */
export function newId(prefix: 'usr' | 'org' | 'ws' | 'inv' | 'key' | 'ses' | 'ps'): string {
  return `${prefix}_${base58(randomBytes(16))}`;
}
