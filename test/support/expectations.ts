import { expect } from 'vitest';

/**
 * The error envelope every failing response must carry, as an asymmetric matcher: exact code,
 * status and documentation link, any wording for error/message/hint.
 */
export function expectedEnvelope(baseUrl: string, status: number, code: string) {
  return {
    error: expect.any(String),
    code,
    message: expect.any(String),
    hint: expect.any(String),
    status,
    documentation: `${baseUrl}/docs/errors#${code}`,
  };
}

/** Polls until the probe returns a value (for asynchronous work such as the queue worker). */
export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
