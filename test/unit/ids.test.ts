import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '#shared/ids.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function millisecondsOf(id: string): number {
  return Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
}

describe('uuidv7', () => {
  it('is a version 7, variant 10 UUID whose first 48 bits are the given milliseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), (ms) => {
        const id = uuidv7(ms);
        expect(id).toMatch(UUID_V7);
        expect(millisecondsOf(id)).toBe(ms);
      }),
    );
  });

  it('sorts ids made in one millisecond in the order they were made', () => {
    // Releases list newest first by this id: two made in the same millisecond must not swap.
    const ms = Date.parse('2026-11-24T05:00:00.000Z');
    const ids = Array.from({ length: 5000 }, () => uuidv7(ms));

    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('sorts by time across milliseconds, and starts each millisecond from a fresh random sequence', () => {
    const start = Date.parse('2026-11-24T05:00:00.000Z');
    const ids = [uuidv7(start), uuidv7(start), uuidv7(start + 1), uuidv7(start + 1), uuidv7(start + 2)];

    expect([...ids].sort()).toEqual(ids);
    // The 32-bit sequence: the 12 bits after the version nibble, then 20 after the variant bits.
    const seq = (id: string) => {
      const hex = id.replaceAll('-', '');
      return Number.parseInt(hex.slice(13, 16), 16) * 2 ** 20 + ((Number.parseInt(hex.slice(16, 22), 16) >> 2) & 0xfffff);
    };
    expect(seq(ids[1]!) - seq(ids[0]!)).toBe(1);
    expect(seq(ids[2]!) - seq(ids[1]!)).not.toBe(1);
  });

  it('does not repeat across calls', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => uuidv7()));
    expect(ids.size).toBe(2000);
  });
});
