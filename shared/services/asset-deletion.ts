import * as v from 'valibot';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { log, serializeError } from '#shared/log.ts';
import { keys } from '#shared/store/keys.ts';

/** Body of a message on the deletion queue. */
export const DeletionMessage = v.strictObject({
  workspaceId: v.pipe(v.string(), v.minLength(1)),
  assetId: v.pipe(v.string(), v.uuid()),
});
export type DeletionMessage = v.InferOutput<typeof DeletionMessage>;

/** The table holding the asset records and the bucket holding their objects. */
export interface DeletionDeps {
  dynamo: DynamoDBDocumentClient;
  s3: S3Client;
  table: string;
  bucket: string;
  now?: () => Date;
}

/** What the worker did with one message, for its log line. */
export type DeletionOutcome = 'deleted' | 'already-deleted' | 'missing' | 'not-deleting';

/**
 * Deletes an asset's object and marks its record deleted. Safe to repeat (SQS delivers at
 * least once): a deleted or vanished record is a no-op, and S3 deletes are idempotent.
 */
export async function deleteAssetObject(message: DeletionMessage, deps: DeletionDeps): Promise<DeletionOutcome> {
  const key = keys.asset(message.workspaceId, message.assetId);
  const { Item } = await deps.dynamo.send(new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }));
  if (!Item) return 'missing';
  if (Item.status === 'deleted') return 'already-deleted';
  // Only a deletion the API accepted is carried out; anything else is a stray message.
  if (Item.status !== 'deleting') return 'not-deleting';
  if (typeof Item.objectKey === 'string') {
    await deps.s3.send(new DeleteObjectCommand({ Bucket: deps.bucket, Key: Item.objectKey }));
  }
  try {
    await deps.dynamo.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: key,
        UpdateExpression: 'SET #status = :deleted, deletedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND #status = :deleting',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':deleted': 'deleted', ':deleting': 'deleting', ':now': (deps.now?.() ?? new Date()).toISOString() },
      }),
    );
  } catch (error) {
    // A concurrent delivery finished first: the outcome is the same.
    if (error instanceof ConditionalCheckFailedException) return 'already-deleted';
    throw error;
  }
  return 'deleted';
}

/**
 * The deletion-queue worker for given dependencies. Reports each failed record on its own
 * (partial batch response), so one bad message is retried — and after maxReceiveCount lands in
 * the DLQ with its asset record untouched — without holding back the rest of the batch.
 */
export function createDeletionWorker(deps: DeletionDeps) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        const message = v.parse(DeletionMessage, JSON.parse(record.body));
        const outcome = await deleteAssetObject(message, deps);
        log.info('asset deletion', { messageId: record.messageId, assetId: message.assetId, outcome });
      } catch (error) {
        log.error('asset deletion failed', { messageId: record.messageId, error: serializeError(error) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}
