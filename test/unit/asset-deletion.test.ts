/**
 * The deletion worker's order of work under failures a real backend cannot produce on demand
 * (a table that fails between two calls): the record says `deleted` only once the object is
 * gone, a failure is reported for a retry, and the retry finishes the job.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DeletionMessage, deleteAssetObject } from '#shared/services/asset-deletion.ts';
import { batchHandler } from '#shared/sqs/batch.ts';
import { AssetObjectStore } from '#shared/store/asset-objects.ts';
import { AssetStore } from '#shared/store/assets.ts';
import { keys } from '#shared/store/keys.ts';
import { MOCK_ASSET_ID, mockAssetItem } from '../support/asset-items.ts';
import { dynamoError, mockDynamo, mockS3, s3Error, stubbedDynamo, stubbedS3 } from '../support/mock-dynamo.ts';

const ddb = mockDynamo();
const storage = mockS3();
afterAll(() => {
  for (const mock of [ddb, storage]) mock.restore();
});

const ASSET_ID = MOCK_ASSET_ID;
const deps = {
  assets: new AssetStore({ dynamo: stubbedDynamo(), table: 'workspace' }),
  objects: new AssetObjectStore({ s3: stubbedS3(), bucket: 'assets' }),
};
// The worker as functions/assets/process-deletion.ts builds it, on stubbed clients.
const worker = batchHandler({ name: 'asset deletion', body: DeletionMessage }, async (message) => ({ outcome: await deleteAssetObject(deps, message) }));
const event = (messageId: string): SQSEvent =>
  ({ Records: [{ messageId, body: JSON.stringify({ workspaceId: 'ws_a', assetId: ASSET_ID }) }] }) as unknown as SQSEvent;
const throttled = () => dynamoError('ThrottlingException', 400, 'Rate exceeded');

beforeEach(() => {
  ddb.reset();
  storage.reset();
  ddb.on(GetCommand, { Key: keys.asset('ws_a', ASSET_ID) }).resolves({ Item: mockAssetItem({ status: 'deleting' }) });
});

describe('deletion worker', () => {
  it('never marks the asset deleted while its object could not be deleted, and reports the record for a retry', async () => {
    // Prepare
    storage.on(DeleteObjectCommand).rejects(s3Error('SlowDown', 503, 'Please reduce your request rate.'));

    // Act
    const result = await worker(event('m-1'));

    // Assess
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('reports the record when the mark fails after the object is gone, and the retry completes it', async () => {
    // Prepare: the object goes, then the table throttles the mark
    storage.on(DeleteObjectCommand).resolves({});
    ddb.on(UpdateCommand).rejectsOnce(throttled()).resolves({});

    // Act
    const first = await worker(event('m-2'));
    const retry = await worker(event('m-2'));

    // Assess
    expect(first).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-2' }] });
    expect(retry).toEqual({ batchItemFailures: [] });
    expect(storage.commandCalls(DeleteObjectCommand)).toHaveLength(2);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual(
      Array(2).fill(
        expect.objectContaining({
          ConditionExpression: 'attribute_exists(pk) AND #status = :deleting',
          ExpressionAttributeValues: expect.objectContaining({ ':deleted': 'deleted' }),
        }),
      ),
    );
  });

  it('reports the record when the table cannot be read, without touching the object', async () => {
    // Prepare
    ddb.on(GetCommand).rejects(throttled());

    // Act
    const result = await worker(event('m-3'));

    // Assess
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-3' }] });
    expect(storage.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });
});
