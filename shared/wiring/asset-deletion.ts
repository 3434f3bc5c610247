/** Dependencies of a deletion request, which queues rather than touches objects, so no S3 client. */
import { config } from '#shared/config.ts';
import type { DeletionRequestDeps } from '#shared/services/assets.ts';
import { DeletionQueue } from '#shared/store/deletion-queue.ts';
import { assetStore } from '#shared/wiring/asset-records.ts';
import { sqs } from '#shared/wiring/sqs.ts';

let deps: DeletionRequestDeps | undefined;

export function deletionRequestDeps(): DeletionRequestDeps {
  deps ??= { assets: assetStore(), deletionQueue: new DeletionQueue({ sqs, queueUrl: config().queues.deletion }) };
  return deps;
}
