import { ConflictError, InvalidRequestError, NotFoundError } from '#shared/errors.ts';
import { uuidv7 } from '#shared/ids.ts';
import { Asset } from '#shared/schemas/assets.ts';
import type { AssetUploadRequest } from '#shared/schemas/assets.ts';
import type { AssetObjectStore } from '#shared/store/asset-objects.ts';
import type { AssetUrlSigner } from '#shared/store/asset-urls.ts';
import type { AssetItem, AssetStore } from '#shared/store/assets.ts';
import type { DeletionQueue } from '#shared/store/deletion-queue.ts';
import { schemaFields } from '#shared/store/item-fields.ts';
import { log, serializeError } from '#shared/log.ts';
import { mediaTypeOf } from '#shared/net/media-type.ts';
import { BUCKETS } from '#shared/resources.ts';

/** Presigned URLs live long enough for a large upload on a slow link, and no longer. */
export const UPLOAD_URL_SECONDS = 15 * 60;
export const DOWNLOAD_URL_SECONDS = 5 * 60;

export interface AssetDeps {
  assets: AssetStore;
  objects: AssetObjectStore;
  urls: AssetUrlSigner;
  deletionQueue: DeletionQueue;
  now?: () => Date;
}
/** What creating an upload and a download URL use: records and the signer, never an S3 request. */
export type AssetUrlDeps = Pick<AssetDeps, 'assets' | 'urls' | 'now'>;
/** What completing an upload uses: records and objects, never the queue. */
export type AssetObjectDeps = Pick<AssetDeps, 'assets' | 'objects' | 'now'>;
/** What a deletion request uses: records and the queue, never the bucket. */
export type DeletionRequestDeps = Pick<AssetDeps, 'assets' | 'deletionQueue' | 'now'>;

/** Staging prefix of uploads; the bucket expires what is left there after a day. */
export const UPLOAD_PREFIX = BUCKETS.assets.prefixes.uploads;

export const objectKeyOf = (workspaceId: string, assetId: string) => `${BUCKETS.assets.prefixes.objects}${workspaceId}/assets/${assetId}`;

/** The record as a client sees it: never the keys, object key or references. */
export const toAsset = /* @__PURE__ */ schemaFields<Asset>(Asset);

const notFound = () => new NotFoundError('Asset not found', 'No asset with this id exists in this workspace.');

function inUse(item: AssetItem): boolean {
  const refs = item.inUseBy;
  return refs !== undefined && (refs instanceof Set ? refs.size : refs.length) > 0;
}

/** A pending asset and a presigned PUT that S3 accepts only with the declared type, length and SHA-256. */
export async function createUpload(deps: AssetUrlDeps, input: { workspaceId: string; body: AssetUploadRequest }) {
  const now = deps.now?.() ?? new Date();
  // UUIDv7: the asset list is ordered by id, newest first.
  const assetId = uuidv7(now.getTime());
  const sha256 = input.body.sha256?.toLowerCase();
  const item = await deps.assets.create(input.workspaceId, {
    assetId,
    status: 'pending',
    contentType: input.body.contentType,
    bytes: input.body.bytes,
    fileName: input.body.fileName,
    classification: input.body.classification,
    ...(sha256 ? { sha256 } : {}),
    createdAt: now.toISOString(),
    objectKey: objectKeyOf(input.workspaceId, assetId),
    uploadKey: `${UPLOAD_PREFIX}${input.workspaceId}/${assetId}`,
  });
  const checksum = sha256 ? Buffer.from(sha256, 'hex').toString('base64') : undefined;
  const uploadUrl = await deps.urls.signUpload(
    item.uploadKey!,
    { contentType: item.contentType, bytes: item.bytes, ...(checksum ? { checksum } : {}) },
    UPLOAD_URL_SECONDS,
  );
  const headers: Record<string, string> = { 'Content-Type': item.contentType, 'Content-Length': String(item.bytes) };
  if (checksum) headers['x-amz-checksum-sha256'] = checksum;
  return {
    assetId,
    uploadUrl,
    method: 'PUT' as const,
    headers,
    expiresAt: new Date(now.getTime() + UPLOAD_URL_SECONDS * 1000).toISOString(),
    asset: toAsset(item),
  };
}

/** The copy must carry the bytes that were hashed: a PUT in between changes the ETag and is refused. */
async function promote(deps: AssetObjectDeps, item: AssetItem, uploadKey: string, etag: string | undefined): Promise<void> {
  const copied = await deps.objects.copy(uploadKey, item.objectKey, item.contentType);
  if (etag !== undefined && copied !== undefined && copied !== etag) {
    await deps.objects.delete(item.objectKey);
    throw new InvalidRequestError('Upload changed while completing', 'The file was uploaded again during completion; complete the upload again.');
  }
}

/** RFC 8187 ext-value: encodeURIComponent leaves ' ( ) * bare, which filename* does not allow. */
function extValue(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Verifies the upload and marks the asset ready; repeatable. The SHA-256 is computed here because not every S3-compatible store checks checksums. */
export async function completeUpload(deps: AssetObjectDeps, input: { workspaceId: string; assetId: string; sha256?: string }): Promise<Asset> {
  const item = await deps.assets.get(input.workspaceId, input.assetId);
  if (!item || item.status === 'deleted') throw notFound();
  const declared = input.sha256?.toLowerCase();
  if (declared && item.sha256 && declared !== item.sha256) {
    throw new InvalidRequestError('SHA-256 differs from the one declared', 'The sha256 sent now differs from the one given when the upload URL was created.');
  }
  if (item.status === 'ready') return toAsset(item);
  if (item.status !== 'pending') throw new InvalidRequestError('Asset is being deleted', 'A deleted asset cannot be completed; create a new upload.');

  // An item without uploadKey was uploaded to its own key.
  const uploadKey = item.uploadKey ?? item.objectKey;
  const head = await deps.objects.head(uploadKey);
  if (!head) throw new InvalidRequestError('Upload not found', 'PUT the file to the uploadUrl with the returned headers before completing.');
  if (head.bytes !== item.bytes) {
    throw new InvalidRequestError(
      'Uploaded size differs',
      `The upload has ${head.bytes} bytes but ${item.bytes} were declared; upload the declared file again.`,
    );
  }
  if (mediaTypeOf(head.contentType) !== item.contentType) {
    throw new InvalidRequestError(
      'Uploaded content type differs',
      `The upload was sent as ${head.contentType ?? 'no type'}; send it with Content-Type: ${item.contentType}.`,
    );
  }
  const expected = declared ?? item.sha256;
  const { sha256: actual, etag } = await deps.objects.sha256(uploadKey);
  if (expected && actual !== expected) {
    // Unverified bytes are not kept: the client uploads again to the same URL while it is valid.
    await deps.objects.delete(uploadKey);
    throw new InvalidRequestError('SHA-256 mismatch', 'The uploaded bytes do not match the declared sha256; upload the file again.');
  }
  if (uploadKey !== item.objectKey) await promote(deps, item, uploadKey, etag);
  const completedAt = (deps.now?.() ?? new Date()).toISOString();
  const ready = await deps.assets.markReady(input.workspaceId, input.assetId, { completedAt, sha256: actual });
  if (!ready) {
    // A concurrent completion won; report the state it left.
    const current = await deps.assets.get(input.workspaceId, input.assetId);
    if (current?.status === 'ready') return toAsset(current);
    throw notFound();
  }
  if (uploadKey !== item.objectKey) {
    // The staging copy is no longer needed; the bucket's lifecycle removes it if this fails.
    await deps.objects
      .delete(uploadKey)
      .catch((error: unknown) => log.warn('staging upload not removed', { assetId: input.assetId, error: serializeError(error) }));
  }
  return toAsset(ready);
}

export async function createDownloadUrl(deps: AssetUrlDeps, input: { workspaceId: string; assetId: string }) {
  const item = await deps.assets.get(input.workspaceId, input.assetId);
  if (!item || item.status === 'deleted' || item.status === 'deleting') throw notFound();
  if (item.status !== 'ready') {
    throw new NotFoundError('Asset not uploaded yet', 'Complete the upload (POST /api/v1/assets/{assetId}/complete) before asking for a download URL.');
  }
  return signedDownload(deps, item);
}

/** A short-lived GET of a ready asset's verified object, saved under its file name. */
export async function signedDownload(deps: Pick<AssetUrlDeps, 'urls' | 'now'>, item: AssetItem): Promise<{ downloadUrl: string; expiresAt: string }> {
  const now = deps.now?.() ?? new Date();
  const downloadUrl = await deps.urls.signDownload(
    item.objectKey,
    { contentType: item.contentType, disposition: `attachment; filename*=UTF-8''${extValue(item.fileName)}` },
    DOWNLOAD_URL_SECONDS,
  );
  return { downloadUrl, expiresAt: new Date(now.getTime() + DOWNLOAD_URL_SECONDS * 1000).toISOString() };
}

/** The state change is one conditional write, so concurrent deletes queue at most one message. */
export async function requestDeletion(deps: DeletionRequestDeps, input: { workspaceId: string; assetId: string }) {
  const item = await deps.assets.get(input.workspaceId, input.assetId);
  if (!item || item.status === 'deleted') throw notFound();
  if (inUse(item)) throw new ConflictError('Asset is in use', 'The asset is referenced (for example by a release); remove the reference before deleting it.');
  if (item.status === 'deleting') throw new ConflictError('Asset is already being deleted', 'The deletion is queued; the asset disappears shortly.');
  if (item.status !== 'ready')
    throw new ConflictError('Asset is not ready for deletion', 'Complete or abandon the upload first; only ready assets can be deleted.');
  if (!(await deps.assets.markDeleting(input.workspaceId, input.assetId, (deps.now?.() ?? new Date()).toISOString()))) {
    throw new ConflictError('Asset changed while deleting', 'The asset is in use or already being deleted; read it again before retrying.');
  }
  try {
    await deps.deletionQueue.enqueue({ workspaceId: input.workspaceId, assetId: input.assetId });
  } catch (error) {
    // Without a queued message nothing would ever finish the deletion: put the asset back.
    await deps.assets
      .unmarkDeleting(input.workspaceId, input.assetId)
      .catch((revert: unknown) => log.error('asset deletion revert failed', { assetId: input.assetId, error: serializeError(revert) }));
    throw error;
  }
  return { assetId: input.assetId, status: 'deleting' as const };
}
