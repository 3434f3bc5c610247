/** A stable SHA-256 of a JSON value: key order does not matter, so a re-serialised retry matches. */
import { createHash } from 'node:crypto';

export function fingerprint(value: unknown): string {
  const canonical = (input: unknown): unknown =>
    Array.isArray(input)
      ? input.map(canonical)
      : input && typeof input === 'object'
        ? Object.fromEntries(
            Object.keys(input)
              .sort()
              .map((key) => [key, canonical((input as Record<string, unknown>)[key])]),
          )
        : input;
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)) ?? 'undefined')
    .digest('hex');
}
