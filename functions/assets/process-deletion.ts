import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as v from 'valibot';
import { dynamo, s3 } from '#shared/aws.ts';
import { config } from '#shared/config.ts';
import { log, serializeError } from '#shared/log.ts';
import { DeletionMessage, deleteAssetObject } from '#shared/services/asset-deletion.ts';

const cfg = config();
const deps = { dynamo, s3, table: cfg.tables.workspace, bucket: cfg.buckets.assets };

/**
 * Deletion-queue worker. Reports each failed record on its own (partial batch response), so
 * one bad message is retried — and after maxReceiveCount lands in the DLQ — without the rest.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
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
