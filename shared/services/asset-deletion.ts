/** The deletion worker's rule for one queued asset; shared/sqs/batch.ts feeds it the batches. */
import * as v from 'valibot';
import type { AssetObjectStore } from '#shared/store/asset-objects.ts';
import type { AssetStore } from '#shared/store/assets.ts';

export const DeletionMessage = v.strictObject({
  workspaceId: v.pipe(v.string(), v.minLength(1)),
  assetId: v.pipe(v.string(), v.uuid()),
});
export type DeletionMessage = v.InferOutput<typeof DeletionMessage>;

export interface DeletionDeps {
  assets: AssetStore;
  objects: AssetObjectStore;
  now?: () => Date;
}

/** What the worker did with one message, for its log line. */
export type DeletionOutcome = 'deleted' | 'already-deleted' | 'missing' | 'not-deleting';

/** Safe to repeat (SQS delivers at least once): a deleted or vanished record is a no-op. */
export async function deleteAssetObject(deps: DeletionDeps, message: DeletionMessage): Promise<DeletionOutcome> {
  const item = await deps.assets.get(message.workspaceId, message.assetId);
  if (!item) return 'missing';
  if (item.status === 'deleted') return 'already-deleted';
  // Only a deletion the API accepted is carried out; anything else is a stray message.
  if (item.status !== 'deleting') return 'not-deleting';
  if (typeof item.objectKey === 'string') await deps.objects.delete(item.objectKey);
  // Not marked: a concurrent delivery finished first, and the outcome is the same.
  if (!(await deps.assets.markDeleted(message.workspaceId, message.assetId, (deps.now?.() ?? new Date()).toISOString()))) return 'already-deleted';
  return 'deleted';
}
