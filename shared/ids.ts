import { randomInt } from 'node:crypto';
import { v7 } from 'uuid';

let last: { ms: number; seq: number } | undefined;

/** A UUIDv7 (RFC 9562) of `now`; the sequence (§6.2, method 1) is kept here, as uuid counts only within its own clock's millisecond. */
export function uuidv7(now: number = Date.now()): string {
  const seq = last?.ms === now ? last.seq + 1 : randomInt(2 ** 31);
  last = { ms: now, seq };
  return v7({ msecs: now, seq });
}
