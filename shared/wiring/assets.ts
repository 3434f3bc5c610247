/** Dependencies of the asset operations that send S3 requests: upload completion and the deletion worker. */
import { config } from '#shared/config.ts';
import type { DeletionDeps } from '#shared/services/asset-deletion.ts';
import type { AssetObjectDeps } from '#shared/services/assets.ts';
import { AssetObjectStore } from '#shared/store/asset-objects.ts';
import { assetStore } from '#shared/wiring/asset-records.ts';
import { s3 } from '#shared/wiring/s3.ts';

let deps: AssetObjectDeps | undefined;

export function assetDeps(): AssetObjectDeps {
  deps ??= { assets: assetStore(), objects: new AssetObjectStore({ s3, bucket: config().buckets.assets }) };
  return deps;
}

export const deletionDeps = (): DeletionDeps => assetDeps();
