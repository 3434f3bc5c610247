import { randomInt } from 'node:crypto';
import { v7 } from 'uuid';

/** The last id's millisecond and sequence, for ids made within one millisecond. */
let last: { ms: number; seq: number } | undefined;

/**
 * A UUIDv7 (RFC 9562) of the given milliseconds. Its text sorts by creation time, so it doubles as
 * a sort key for newest-first listings. uuid counts up within a millisecond only on its own clock;
 * callers pass theirs (an id matches its record's `createdAt`), so the counter is kept here: ids of
 * one millisecond continue its 32-bit sequence (§6.2, method 1) from a random start below 2^31.
 */
export function uuidv7(now: number = Date.now()): string {
  const seq = last?.ms === now ? last.seq + 1 : randomInt(2 ** 31);
  last = { ms: now, seq };
  return v7({ msecs: now, seq });
}
