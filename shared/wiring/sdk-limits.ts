/**
 * The limits every SDK client of a container shares. The SDK by default waits without limit; these
 * give up on an unreachable or silent service well inside the shortest route time-out (10 s), so a
 * caller gets 503 `upstream_unavailable` rather than Lambda's time-out: with 3 attempts and the
 * SDK's back-off, a refused connection fails in well under a second, a silent service in about 6.5 s.
 */

/** How long each attempt of an SDK call may take, and how many attempts it gets. */
export const SDK_LIMITS = {
  maxAttempts: 3,
  /** Time to open the TCP connection. */
  connectionTimeoutMs: 1_000,
  /** Time from sending the request until the response headers arrive (the upload of a body included). */
  requestTimeoutMs: 2_000,
  /** Longest silence while a response body streams (an S3 object being read). */
  socketTimeoutMs: 5_000,
} as const;
