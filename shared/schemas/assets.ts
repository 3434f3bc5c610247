import * as v from 'valibot';
import { Uuid, pageQuery } from '#shared/schemas/common.ts';

export const ASSET_CONTENT_TYPES = ['image/gif', 'image/jpeg', 'image/png', 'image/webp', 'video/mp4', 'video/webm'] as const;
export const MAX_ASSET_BYTES = 52_428_800;

const Sha256 = v.pipe(v.string(), v.regex(/^[a-fA-F0-9]{64}$/, 'must be 64 hexadecimal characters'), v.description('SHA-256 of the bytes, hex.'));

/** POST /api/v1/assets/upload-url body (additional properties rejected). */
export const AssetUploadRequest = v.strictObject({
  bytes: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_ASSET_BYTES), v.description('Exact size of the upload in bytes.')),
  contentType: v.pipe(v.picklist(ASSET_CONTENT_TYPES), v.description('Media type the upload must be sent with.')),
  fileName: v.pipe(v.string(), v.minLength(1), v.maxLength(128), v.description('Original file name, 1–128 characters.')),
  classification: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description('What the asset is for.')), 'input'),
  sha256: v.optional(Sha256),
});
export type AssetUploadRequest = v.InferOutput<typeof AssetUploadRequest>;

/** POST /api/v1/assets/{assetId}/complete body, optional. */
export const AssetCompleteRequest = v.optional(v.strictObject({ sha256: v.optional(Sha256) }));

export const AssetParams = v.object({ assetId: v.pipe(Uuid, v.description('Asset id (UUID).')) });

export const AssetStatus = v.picklist(['pending', 'ready', 'deleting', 'deleted']);

export const Asset = v.object({
  assetId: v.string(),
  status: AssetStatus,
  contentType: v.picklist(ASSET_CONTENT_TYPES),
  bytes: v.number(),
  fileName: v.string(),
  classification: v.string(),
  sha256: v.optional(v.string()),
  createdAt: v.string(),
  completedAt: v.optional(v.string()),
});
export type Asset = v.InferOutput<typeof Asset>;

export const AssetUploadInstructions = v.object({
  assetId: v.string(),
  uploadUrl: v.pipe(v.string(), v.url()),
  method: v.literal('PUT'),
  headers: v.record(v.string(), v.string()),
  expiresAt: v.pipe(v.string(), v.isoTimestamp()),
  asset: Asset,
});

export const AssetDownload = v.object({
  downloadUrl: v.pipe(v.string(), v.url()),
  expiresAt: v.pipe(v.string(), v.isoTimestamp()),
});

export const AssetDeletionAccepted = v.object({ assetId: v.string(), status: v.literal('deleting') });

export const AssetListQuery = pageQuery(20);

export const AssetList = v.object({
  assets: v.array(
    v.object({
      ...Asset.entries,
      downloadUrl: v.pipe(
        v.nullable(v.pipe(v.string(), v.url())),
        v.description('A signed GET of a ready asset, short-lived; null until the upload is complete.'),
      ),
      downloadExpiresAt: v.pipe(v.nullable(v.pipe(v.string(), v.isoTimestamp())), v.description('When downloadUrl stops working.')),
    }),
  ),
  nextCursor: v.optional(v.pipe(v.string(), v.description('Present when older assets remain: send it as `cursor` to get the next page.'))),
});
