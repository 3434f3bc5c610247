/** API keys, session tokens and record ids. Secrets are shown once and stored only as SHA-256 hashes. */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Bitcoin-alphabet base58 (no 0, O, I, l): unambiguous when copied by hand. */
export function base58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

export const API_KEY_PREFIX = 'easel_sk_';
export const SESSION_TOKEN_PREFIX = 'easel_st_';
/** 192 bits, well above the 128 the design asks for. */
const API_KEY_BYTES = 24;
const SESSION_TOKEN_BYTES = 32;
// base58 of n bytes has at most ceil(n * 8 / log2(58)) characters, fewer with leading zero bytes only rarely.
const API_KEY_FORMAT = /^easel_sk_[1-9A-HJ-NP-Za-km-z]{24,33}$/;
const SESSION_TOKEN_FORMAT = /^easel_st_[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export function generateApiKey(): string {
  return API_KEY_PREFIX + base58(randomBytes(API_KEY_BYTES));
}

export function generateSessionToken(): string {
  return SESSION_TOKEN_PREFIX + base58(randomBytes(SESSION_TOKEN_BYTES));
}

/** Anything else is refused without a database read. */
export function isApiKeyFormat(value: string): boolean {
  return API_KEY_FORMAT.test(value);
}

export function isSessionTokenFormat(value: string): boolean {
  return SESSION_TOKEN_FORMAT.test(value);
}

/** Digits of an e-mail sign-in code: short enough to type, guessed once in 200,000 with five tries. */
export const EMAIL_CODE_DIGITS = 6;

export function generateEmailCode(): string {
  return String(randomInt(0, 10 ** EMAIL_CODE_DIGITS)).padStart(EMAIL_CODE_DIGITS, '0');
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Keys of an address's code and rate counters: the table and its logs never hold the address itself. */
export function hashAddress(email: string): string {
  return hashSecret(`email:${normalizeEmail(email)}`);
}

/** A code is stored as this hash, bound to its address so one table of hashes fits no other address. */
export function hashEmailCode(addressHash: string, code: string): string {
  return hashSecret(`${addressHash}:${code}`);
}

/** What the table stores and is keyed by. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** A public id such as `org_…`: a type prefix and base58 of 16 random bytes. */
export function newId(prefix: 'usr' | 'org' | 'ws' | 'inv' | 'key' | 'ses' | 'ps' | 'pky'): string {
  return `${prefix}_${base58(randomBytes(16))}`;
}
