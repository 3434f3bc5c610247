import { DeletionMessage, deleteAssetObject } from '#shared/services/asset-deletion.ts';
import { batchHandler } from '#shared/sqs/batch.ts';
import { deletionDeps } from '#shared/wiring/assets.ts';

const deps = deletionDeps();

/** Deletion-queue worker: deletes the object of each queued asset and marks the asset deleted. */
export const handler = batchHandler({ name: 'asset deletion', body: DeletionMessage }, async (message) => ({
  assetId: message.assetId,
  outcome: await deleteAssetObject(deps, message),
}));
