import { randomBytes } from 'node:crypto';

const RANDOM_BITS = 74n;
const RANDOM_MASK = (1n << RANDOM_BITS) - 1n;

/** The last id's millisecond and its 74 random bits, for ids made within one millisecond. */
let last: { ms: number; random: bigint } | undefined;

function freshRandom(): bigint {
  // The top bit starts clear, so a run of ids in one millisecond has 2^73 steps before it could carry.
  return BigInt(`0x${randomBytes(10).toString('hex')}`) & (RANDOM_MASK >> 1n);
}

/**
 * A UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then 74 random bits. Its text sorts by creation
 * time, so it doubles as a sort key for newest-first listings. Ids this process makes in the same
 * millisecond count up from the first one's random bits (RFC 9562 §6.2, method 2), so they too sort
 * in the order they were made; a new millisecond starts from fresh random bits.
 */
export function uuidv7(now: number = Date.now()): string {
  const random = last?.ms === now ? (last.random + 1n) & RANDOM_MASK : freshRandom();
  last = { ms: now, random };
  const randA = Number(random >> 62n); // 12 bits after the version nibble
  const randB = random & ((1n << 62n) - 1n); // 62 bits after the variant
  const hex =
    now.toString(16).padStart(12, '0') +
    (0x7000 | randA).toString(16) +
    ((2n << 62n) | randB).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
