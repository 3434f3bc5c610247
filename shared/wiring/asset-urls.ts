/** Dependencies of the asset operations that only presign URLs (upload, download). */
import { config } from '#shared/config.ts';
import type { AssetUrlDeps } from '#shared/services/assets.ts';
import { AssetUrlSigner } from '#shared/store/asset-urls.ts';
import { assetStore } from '#shared/wiring/asset-records.ts';
import { s3 } from '#shared/wiring/s3.ts';

let deps: AssetUrlDeps | undefined;

export function assetUrlDeps(): AssetUrlDeps {
  deps ??= { assets: assetStore(), urls: new AssetUrlSigner({ s3, bucket: config().buckets.assets }) };
  return deps;
}
