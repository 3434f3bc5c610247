/**
 * The limits every AWS client of a container shares: Easel's own (DynamoDB, S3, SQS, Secrets
 * Manager: aws/transport.ts), through aws-clients.ts. Each client is built in a wiring file of
 * its own (dynamo.ts, s3.ts, sqs.ts, internal-auth.ts), so a function bundles only the clients its
 * row's grants name. Endpoint overrides point them at the embedded backends locally; in the cloud
 * the overrides are absent and the regional endpoints apply.
 *
 * Every client gives up on an unreachable or silent service well inside the shortest route
 * time-out (10 s), so a caller gets 503 `upstream_unavailable` from the data-access layer rather
 * than Lambda's time-out. The SDK by default waits without limit for a connection and for an
 * answer; DynamoDB, S3 and SQS answer in milliseconds, so a second to connect and two to start
 * answering are generous: with 3 attempts and the SDK's back-off, a refused connection fails in
 * well under a second, a service that accepts and never answers in about 6.5 s.
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
