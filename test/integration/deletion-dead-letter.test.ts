/**
 * The deletion worker failing, end to end on the local runtime: the queue and its dead-letter
 * queue as provisioned from shared/resources.ts, the runtime's own poller, and S3 really down.
 * The message is retried maxReceiveCount times, then moved to the dead-letter queue by the queue
 * itself, as SQS does; the asset record is neither lost nor half-deleted, and redriving the
 * message once S3 is back finishes the deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { QUEUES } from '#shared/resources.ts';
import { keys } from '#shared/store/keys.ts';
import { call } from '../support/client.ts';
import { waitFor } from '../support/expectations.ts';
import { startTestRuntime } from '../support/local.ts';
import type { TestRuntime } from '../support/local.ts';
import { createAsset, createFixtures } from '../support/route-requests.ts';
import type { Fixtures } from '../support/route-requests.ts';
import { collectedLogLines } from '../support/secret-audit.ts';

let runtime: TestRuntime;
let fixtures: Fixtures;
let dynamo: DynamoDBDocumentClient;
let s3: S3Client;
let sqs: SQSClient;
let dlqUrl: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  fixtures = await createFixtures(runtime);
  const credentials = { accessKeyId: 'x', secretAccessKey: 'x' };
  const region = 'us-east-1';
  dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({ region, endpoint: runtime.env.DYNAMODB_ENDPOINT, credentials }));
  s3 = new S3Client({ region, endpoint: runtime.env.S3_ENDPOINT, forcePathStyle: true, credentials });
  sqs = new SQSClient({ region, endpoint: runtime.env.SQS_ENDPOINT, credentials });
  dlqUrl = (await sqs.send(new GetQueueUrlCommand({ QueueName: QUEUES.deletion.deadLetter.localName }))).QueueUrl!;
  // A failed receive comes back after the visibility timeout (180 s as deployed): 1 s keeps the five retries short.
  await sqs.send(new SetQueueAttributesCommand({ QueueUrl: runtime.env.DELETION_QUEUE_URL, Attributes: { VisibilityTimeout: '1' } }));
});

afterAll(async () => {
  for (const client of [dynamo, s3, sqs]) client?.destroy();
  fixtures?.close();
  await runtime?.dispose();
});

const assetItem = async (assetId: string) =>
  (await dynamo.send(new GetCommand({ TableName: runtime.env.WORKSPACE_TABLE, Key: keys.asset(fixtures.a.workspaceId, assetId), ConsistentRead: true }))).Item!;

const depth = async (queueUrl: string) => {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible);
};

describe('the deletion worker while S3 is down', () => {
  it(`retries ${QUEUES.deletion.deadLetter.maxReceiveCount} times, dead-letters the message, keeps the asset whole, and finishes once redriven`, async () => {
    // Prepare: a ready asset, then S3 goes away
    const assetId = await createAsset(runtime.url, fixtures.a);
    const before = await assetItem(assetId);
    await runtime.embedded.s3!.stop();

    // Act: the deletion is accepted (it needs only the table and the queue), and the worker fails on S3
    const accepted = await call(runtime.url, `/api/v1/assets/${assetId}`, { method: 'DELETE', headers: { 'x-api-key': fixtures.a.key } });
    const [dead] = await waitFor(async () => {
      const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, WaitTimeSeconds: 1, MessageSystemAttributeNames: ['All'] }));
      return Messages?.length ? Messages : undefined;
    }, 30_000);
    await runtime.embedded.s3!.start();

    // Assess: the API accepted, the queue redrove after maxReceiveCount failed attempts
    expect(accepted).toMatchObject({ status: 202, body: { assetId, status: 'deleting' } });
    expect(JSON.parse(dead!.Body!)).toEqual({ workspaceId: fixtures.a.workspaceId, assetId });
    const attempts = collectedLogLines().filter((line) => line.includes('"msg":"asset deletion failed"') && line.includes(dead!.MessageId!));
    expect(attempts).toHaveLength(QUEUES.deletion.deadLetter.maxReceiveCount);
    expect(await depth(runtime.env.DELETION_QUEUE_URL!)).toBe(0);
    // Assess: the record says what happened and nothing else changed; the object is untouched
    const after = await assetItem(assetId);
    expect(after).toEqual({ ...before, status: 'deleting', deletionRequestedAt: expect.any(String) });
    const object = await s3.send(new GetObjectCommand({ Bucket: runtime.env.ASSETS_BUCKET, Key: before.objectKey }));
    expect(Buffer.from(await object.Body!.transformToByteArray()).toString('hex')).toMatch(/^89504e47/);
    expect(object.ContentLength).toBe(before.bytes);

    // Act: an operator redrives the message once S3 is back
    await sqs.send(new SendMessageCommand({ QueueUrl: runtime.env.DELETION_QUEUE_URL, MessageBody: dead!.Body! }));
    await sqs.send(new DeleteMessageCommand({ QueueUrl: dlqUrl, ReceiptHandle: dead!.ReceiptHandle! }));
    const deleted = await waitFor(async () => {
      const item = await assetItem(assetId);
      return item.status === 'deleted' ? item : undefined;
    });

    // Assess: done, object and record agree
    expect(deleted).toEqual({ ...after, status: 'deleted', deletedAt: expect.any(String) });
    await expect(s3.send(new HeadObjectCommand({ Bucket: runtime.env.ASSETS_BUCKET, Key: before.objectKey }))).rejects.toMatchObject({ name: 'NotFound' });
    expect(await depth(dlqUrl)).toBe(0);
    expect((await call(runtime.url, `/api/v1/assets/${assetId}/download-url`, { headers: { 'x-api-key': fixtures.a.key } })).status).toBe(404);
  }, 60_000);
});
