/**
 * Dependencies of the asset operations that hand out presigned URLs (upload, download): asset
 * records and the signer of the assets bucket, built once at first use.
 */
import { config } from '#shared/config.ts';
import type { AssetUrlDeps } from '#shared/services/assets.ts';
import { AssetUrlSigner } from '#shared/store/asset-urls.ts';
import { assetStore } from '#shared/wiring/asset-records.ts';
import { s3 } from '#shared/wiring/s3.ts';

let deps: AssetUrlDeps | undefined;

/** Asset records and the signer of the assets bucket. */
export function assetUrlDeps(): AssetUrlDeps {
  deps ??= { assets: assetStore(), urls: new AssetUrlSigner({ s3, bucket: config().buckets.assets }) };
  return deps;
}
