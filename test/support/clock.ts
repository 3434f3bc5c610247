/** Bursts counted in fixed windows, on a frozen clock: however slow the machine, a burst cannot straddle two windows. */
import { vi } from 'vitest';

let windowsUsed = 0;

/**
 * Runs `work` with Date (only Date: timers still run) frozen one second into a window of
 * `windowSeconds` that no earlier call in this process has used, ahead of the real clock.
 */
export async function inOneWindow<T>(windowSeconds: number, work: () => Promise<T>): Promise<T> {
  const size = windowSeconds * 1000;
  windowsUsed += 1;
  vi.useFakeTimers({ toFake: ['Date'], now: (Math.floor(Date.now() / size) + windowsUsed) * size + 1_000 });
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}
