/** The DynamoDB document client of this container (limits: sdk-limits.ts). */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config.ts';
import { SDK_LIMITS, requestHandler } from '#shared/wiring/sdk-limits.ts';

const cfg = config();

export const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({ region: cfg.region, endpoint: cfg.endpoints.dynamodb, maxAttempts: SDK_LIMITS.maxAttempts, requestHandler }),
  { marshallOptions: { removeUndefinedValues: true } },
);
