/** Dependencies of a deletion request: asset records and the deletion queue, built once at first use. */
import { config } from '#shared/config.ts';
import type { DeletionRequestDeps } from '#shared/services/assets.ts';
import { DeletionQueue } from '#shared/store/deletion-queue.ts';
import { assetStore } from '#shared/wiring/asset-records.ts';
import { sqs } from '#shared/wiring/sqs.ts';

let deps: DeletionRequestDeps | undefined;

/** Asset records and the deletion queue. */
export function deletionRequestDeps(): DeletionRequestDeps {
  deps ??= { assets: assetStore(), deletionQueue: new DeletionQueue({ sqs, queueUrl: config().queues.deletion }) };
  return deps;
}
