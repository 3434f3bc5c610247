/** The DynamoDB document client of this container (limits: sdk-limits.ts; the client: aws/dynamodb.ts). */
import { DynamoClient } from '#shared/aws/dynamodb.ts';
import { config } from '#shared/config.ts';
import { credentials } from '#shared/wiring/aws-credentials.ts';
import { SDK_LIMITS } from '#shared/wiring/sdk-limits.ts';

const cfg = config();

export const dynamo = new DynamoClient({
  region: cfg.region,
  endpoint: cfg.endpoints.dynamodb,
  credentials,
  maxAttempts: SDK_LIMITS.maxAttempts,
  connectionTimeoutMs: SDK_LIMITS.connectionTimeoutMs,
  requestTimeoutMs: SDK_LIMITS.requestTimeoutMs,
  socketTimeoutMs: SDK_LIMITS.socketTimeoutMs,
});
