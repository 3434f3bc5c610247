import { randomInt } from 'node:crypto';
import { v7 } from 'uuid';

/** The last id's millisecond and sequence, for ids made within one millisecond. */
let last: { ms: number; seq: number } | undefined;

/**
 * A UUIDv7 (RFC 9562) of `now`, which sorts by creation time. uuid only counts within a millisecond
 * of its own clock, so the sequence (§6.2, method 1) is kept here for callers' clocks.
 */
export function uuidv7(now: number = Date.now()): string {
  const seq = last?.ms === now ? last.seq + 1 : randomInt(2 ** 31);
  last = { ms: now, seq };
  return v7({ msecs: now, seq });
}
