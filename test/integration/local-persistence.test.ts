import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestRuntime } from '../support/local.ts';

// Backend ports change on every start, so these clients are built from each runtime's own settings.
function clients(env: Record<string, string>) {
  const credentials = { accessKeyId: 'x', secretAccessKey: 'x' };
  return {
    dynamo: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', endpoint: env.DYNAMODB_ENDPOINT, credentials })),
    s3: new S3Client({ region: 'us-east-1', endpoint: env.S3_ENDPOINT, forcePathStyle: true, credentials }),
  };
}

describe('local runtime persistence', () => {
  it('keeps items and objects across a restart on the same data folder', async () => {
    // Prepare
    const dataDir = await mkdtemp(join(tmpdir(), 'easel-restart-'));
    const first = await startTestRuntime({ dataDir });
    const before = clients(first.env);
    await before.dynamo.send(new PutCommand({ TableName: first.env.WORKSPACE_TABLE, Item: { pk: 'KEEP', sk: 'ME', n: 1 } }));
    await before.s3.send(new PutObjectCommand({ Bucket: first.env.ASSETS_BUCKET, Key: 'keep.txt', Body: 'kept' }));
    await first.stop();
    // Act
    const second = await startTestRuntime({ dataDir });
    try {
      const after = clients(second.env);
      // Assess
      const { Item } = await after.dynamo.send(new GetCommand({ TableName: second.env.WORKSPACE_TABLE, Key: { pk: 'KEEP', sk: 'ME' } }));
      expect(Item).toEqual({ pk: 'KEEP', sk: 'ME', n: 1 });
      const object = await after.s3.send(new GetObjectCommand({ Bucket: second.env.ASSETS_BUCKET, Key: 'keep.txt' }));
      expect(await object.Body!.transformToString()).toBe('kept');
    } finally {
      await second.stop();
    }
    // Act: a clean start forgets everything
    const third = await startTestRuntime({ dataDir, clean: true });
    try {
      const { Item } = await clients(third.env).dynamo.send(new GetCommand({ TableName: third.env.WORKSPACE_TABLE, Key: { pk: 'KEEP', sk: 'ME' } }));
      expect(Item).toBeUndefined();
    } finally {
      await third.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
