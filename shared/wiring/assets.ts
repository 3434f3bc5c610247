/**
 * Dependencies of the asset operations that send S3 requests (completion) and of the deletion
 * worker: asset records and the assets bucket, built once at first use. Upload and download,
 * which only presign, are wired in asset-urls.ts; the deletion request, which queues rather than
 * touches objects, in asset-deletion.ts.
 */
import { config } from '#shared/config.ts';
import type { DeletionDeps } from '#shared/services/asset-deletion.ts';
import type { AssetObjectDeps } from '#shared/services/assets.ts';
import { AssetObjectStore } from '#shared/store/asset-objects.ts';
import { assetStore } from '#shared/wiring/asset-records.ts';
import { s3 } from '#shared/wiring/s3.ts';

let deps: AssetObjectDeps | undefined;

/** Asset records and the assets bucket, for completing an upload. */
export function assetDeps(): AssetObjectDeps {
  deps ??= { assets: assetStore(), objects: new AssetObjectStore({ s3, bucket: config().buckets.assets }) };
  return deps;
}

/** The deletion worker: asset records and the assets bucket. */
export const deletionDeps = (): DeletionDeps => assetDeps();
