/** The SQS client of this container (limits: sdk-limits.ts; the client: aws/sqs.ts). */
import { SqsClient } from '#shared/aws/sqs.ts';
import { config } from '#shared/config.ts';
import { credentials } from '#shared/wiring/aws-credentials.ts';
import { SDK_LIMITS } from '#shared/wiring/sdk-limits.ts';

const cfg = config();

export const sqs = new SqsClient({
  region: cfg.region,
  endpoint: cfg.endpoints.sqs,
  credentials,
  maxAttempts: SDK_LIMITS.maxAttempts,
  connectionTimeoutMs: SDK_LIMITS.connectionTimeoutMs,
  requestTimeoutMs: SDK_LIMITS.requestTimeoutMs,
  socketTimeoutMs: SDK_LIMITS.socketTimeoutMs,
});
