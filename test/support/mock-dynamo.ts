/**
 * aws-sdk-client-mock on the SDK clients the stores use, clients for the stubs to intercept, and
 * service errors shaped as the SDK throws them.
 */
import { ConditionalCheckFailedException, DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { NoSuchKey, NotFound, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { dynamoDocumentClient } from '#shared/aws/dynamodb.ts';
import { s3Client } from '#shared/aws/s3.ts';
import type { AwsClientSettings } from '#shared/aws/settings.ts';
import { sqsClient } from '#shared/aws/sqs.ts';

/** Stubs `send` of every DynamoDB document client (restore() puts it back). */
export const mockDynamo = () => mockClient(DynamoDBDocumentClient);

/** Stubs `send` of every S3 client (restore() puts it back). */
export const mockS3 = () => mockClient(S3Client);

/** Stubs `send` of every SQS client (restore() puts it back). */
export const mockSqs = () => mockClient(SQSClient);

/** Settings of a client for the stubs to intercept: nothing listens there, no attempt is repeated. */
const STUBBED: AwsClientSettings = {
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:9',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  maxAttempts: 1,
  connectionTimeoutMs: 100,
  requestTimeoutMs: 100,
  socketTimeoutMs: 100,
};

/** A DynamoDB client for mockDynamo() to intercept. */
export const stubbedDynamo = (): DynamoDBDocumentClient => dynamoDocumentClient(STUBBED);

/** An SQS client for mockSqs() to intercept. */
export const stubbedSqs = (): SQSClient => sqsClient(STUBBED);

/** An S3 client for mockS3() to intercept. */
export const stubbedS3 = (): S3Client => s3Client(STUBBED);

const fault = (httpStatusCode: number) => (httpStatusCode >= 500 ? 'server' : 'client') as 'server' | 'client';

/** An S3 error as the SDK throws it for S3's answer. */
export function s3Error(name: string, httpStatusCode: number, message = name): S3ServiceException {
  const init = { message, $metadata: { httpStatusCode } };
  if (name === 'NoSuchKey') return new NoSuchKey(init);
  if (name === 'NotFound') return new NotFound(init);
  return new S3ServiceException({ ...init, name, $fault: fault(httpStatusCode), ...(name === 'SlowDown' ? { $retryable: { throttling: true } } : {}) });
}

/** A DynamoDB error as the SDK throws it for the service's answer, after its attempts. */
export function dynamoError(name: string, httpStatusCode: number, message = name): DynamoDBServiceException {
  const $metadata = { httpStatusCode, attempts: 3 };
  if (name === 'ConditionalCheckFailedException') return new ConditionalCheckFailedException({ message, $metadata });
  const throttling = /Throttl|ThroughputExceeded|LimitExceeded/.test(name) || httpStatusCode === 429;
  return new DynamoDBServiceException({ name, message, $fault: fault(httpStatusCode), $metadata, ...(throttling ? { $retryable: { throttling: true } } : {}) });
}
