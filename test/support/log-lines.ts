import { afterEach, beforeEach } from 'vitest';
import { setLogTap } from '#shared/log.ts';

/**
 * The log lines (EMF metric records included) each test of the enclosing suite writes, parsed,
 * whatever LOG_LEVEL the run has.
 */
export function useLogLines(): { readonly lines: Record<string, unknown>[] } {
  const captured = { lines: [] as Record<string, unknown>[] };
  let restore: ReturnType<typeof setLogTap>;
  beforeEach(() => {
    captured.lines = [];
    restore = setLogTap((line) => captured.lines.push(JSON.parse(line) as Record<string, unknown>));
  });
  afterEach(() => {
    setLogTap(restore);
  });
  return captured;
}
