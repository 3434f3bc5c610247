/**
 * Dependencies of the asset services and the deletion worker in this container: stores on the
 * shared SDK clients and the configured table, bucket and queue, built once at first use.
 */
import { dynamo, s3, sqs } from '#shared/wiring/aws.ts';
import { config } from '#shared/config.ts';
import type { DeletionDeps } from '#shared/services/asset-deletion.ts';
import type { AssetDeps } from '#shared/services/assets.ts';
import { AssetObjectStore } from '#shared/store/asset-objects.ts';
import { AssetStore } from '#shared/store/assets.ts';
import { DeletionQueue } from '#shared/store/deletion-queue.ts';

let records: AssetStore | undefined;
let objects: AssetObjectStore | undefined;
let assets: AssetDeps | undefined;
let deletion: DeletionDeps | undefined;

const assetStore = () => (records ??= new AssetStore({ dynamo, table: config().tables.workspace }));
const assetObjects = () => (objects ??= new AssetObjectStore({ s3, bucket: config().buckets.assets }));

/** Asset services: asset records, the assets bucket and the deletion queue. */
export function assetDeps(): AssetDeps {
  assets ??= { assets: assetStore(), objects: assetObjects(), deletionQueue: new DeletionQueue({ sqs, queueUrl: config().queues.deletion }) };
  return assets;
}

/** The deletion worker: asset records and the assets bucket. */
export function deletionDeps(): DeletionDeps {
  deletion ??= { assets: assetStore(), objects: assetObjects() };
  return deletion;
}
