/**
 * Dependencies of the asset operations that hand out presigned URLs (upload, download): asset
 * records and the signer of the assets bucket, built once at first use. They send no S3 request,
 * so they carry no S3 client; completion and the deletion worker, which do, are wired in assets.ts.
 */
import { config } from '#shared/config.ts';
import type { AssetUrlDeps } from '#shared/services/assets.ts';
import { AssetUrlSigner } from '#shared/store/asset-urls.ts';
import { assetStore } from '#shared/wiring/asset-records.ts';
import { s3Presigner } from '#shared/wiring/s3-presigner.ts';

let deps: AssetUrlDeps | undefined;

/** Asset records and the signer of the assets bucket. */
export function assetUrlDeps(): AssetUrlDeps {
  deps ??= { assets: assetStore(), urls: new AssetUrlSigner({ presigner: s3Presigner, bucket: config().buckets.assets }) };
  return deps;
}
