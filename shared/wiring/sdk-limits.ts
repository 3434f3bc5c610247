/**
 * The SDK waits without limit by default; these give up on a dead service, back-off included, well
 * inside the shortest route time-out, so callers get 503 `upstream_unavailable`, not Lambda's time-out.
 */

export const SDK_LIMITS = {
  maxAttempts: 3,
  connectionTimeoutMs: 1_000,
  /** Until the response headers, a body's upload included. */
  requestTimeoutMs: 2_000,
  /** Longest silence while a response body streams. */
  socketTimeoutMs: 5_000,
} as const;
