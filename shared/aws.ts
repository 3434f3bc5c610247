/**
 * AWS SDK clients, one per container. Endpoint overrides point them at the embedded backends
 * locally; in the cloud the overrides are absent and the SDK defaults apply.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '#shared/config.ts';

const cfg = config();

export const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({ region: cfg.region, endpoint: cfg.endpoints.dynamodb, maxAttempts: 3 }),
  { marshallOptions: { removeUndefinedValues: true } },
);

// Checksums only when S3 requires them: otherwise streamed uploads carry chunk framing on
// S3-compatible servers and presigned PUT URLs pin the CRC32 of an empty body (FACTS.md).
export const s3 = new S3Client({
  region: cfg.region,
  endpoint: cfg.endpoints.s3,
  forcePathStyle: cfg.endpoints.s3 !== undefined,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
  maxAttempts: 3,
});

export const sqs = new SQSClient({ region: cfg.region, endpoint: cfg.endpoints.sqs, maxAttempts: 3 });
