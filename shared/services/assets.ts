import { createHash, randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ConflictError, InvalidRequestError, NotFoundError, UpstreamUnavailableError } from '#shared/errors.ts';
import { Asset } from '#shared/schemas/assets.ts';
import type { AssetUploadRequest } from '#shared/schemas/assets.ts';
import { guard } from '#shared/store/sdk-calls.ts';
import { keys } from '#shared/store/keys.ts';
import { log, serializeError } from '#shared/log.ts';
import { mediaTypeOf } from '#shared/http/media-type.ts';
import { BUCKETS } from '#shared/resources.ts';

/** Lifetimes of presigned URLs: long enough for a 50 MB upload on a slow link, short enough to be useless later. */
export const UPLOAD_URL_SECONDS = 15 * 60;
export const DOWNLOAD_URL_SECONDS = 5 * 60;

export interface AssetDeps {
  dynamo: DynamoDBDocumentClient;
  s3: S3Client;
  sqs: SQSClient;
  table: string;
  bucket: string;
  deletionQueueUrl: string;
  now?: () => Date;
}

/**
 * `uploadKey` is where the presigned PUT writes; completion copies verified bytes to `objectKey`,
 * so a client re-using the upload URL afterwards can never change what was verified.
 */
type AssetItem = Asset & { pk: string; sk: string; objectKey: string; uploadKey?: string; inUseBy?: Set<string> | string[] };

/** Staging prefix of uploads; the bucket expires what is left there after a day. */
export const UPLOAD_PREFIX = BUCKETS.assets.prefixes.uploads;

// The fields of the item a client sees: the schema's, never the keys, object key or references.
const ASSET_FIELDS = Object.keys(Asset.entries);

function toAsset(item: Record<string, unknown>): Asset {
  const asset: Record<string, unknown> = {};
  for (const field of ASSET_FIELDS) if (item[field] !== undefined) asset[field] = item[field];
  return asset as Asset;
}

const notFound = () => new NotFoundError('Asset not found', 'No asset with this id exists in this workspace.');

async function readAsset(deps: AssetDeps, workspaceId: string, assetId: string): Promise<AssetItem | undefined> {
  const { Item } = await guard('The asset store', () =>
    deps.dynamo.send(new GetCommand({ TableName: deps.table, Key: keys.asset(workspaceId, assetId), ConsistentRead: true })),
  );
  return Item as AssetItem | undefined;
}

function inUse(item: AssetItem): boolean {
  const refs = item.inUseBy;
  return refs !== undefined && (refs instanceof Set ? refs.size : refs.length) > 0;
}

/**
 * Creates a pending asset and a presigned PUT bound to its content type, length and (when
 * declared) SHA-256, so S3 refuses any other upload to that URL.
 */
export async function createUpload(deps: AssetDeps, input: { workspaceId: string; body: AssetUploadRequest }) {
  const now = deps.now?.() ?? new Date();
  const assetId = randomUUID();
  const sha256 = input.body.sha256?.toLowerCase();
  const item: AssetItem = {
    ...keys.asset(input.workspaceId, assetId),
    assetId,
    status: 'pending',
    contentType: input.body.contentType,
    bytes: input.body.bytes,
    fileName: input.body.fileName,
    classification: input.body.classification,
    ...(sha256 ? { sha256 } : {}),
    createdAt: now.toISOString(),
    objectKey: `${BUCKETS.assets.prefixes.objects}${input.workspaceId}/assets/${assetId}`,
    uploadKey: `${UPLOAD_PREFIX}${input.workspaceId}/${assetId}`,
  };
  await guard('The asset store', () =>
    deps.dynamo.send(new PutCommand({ TableName: deps.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' })),
  );
  const checksum = sha256 ? Buffer.from(sha256, 'hex').toString('base64') : undefined;
  const command = new PutObjectCommand({
    Bucket: deps.bucket,
    Key: item.uploadKey,
    ContentType: item.contentType,
    ContentLength: item.bytes,
    ...(checksum ? { ChecksumSHA256: checksum } : {}),
  });
  const uploadUrl = await getSignedUrl(deps.s3, command, {
    expiresIn: UPLOAD_URL_SECONDS,
    // Signed headers must be sent exactly: S3 then refuses another type, size or checksum.
    signableHeaders: new Set(['content-type', 'content-length']),
    unhoistableHeaders: checksum ? new Set(['x-amz-checksum-sha256']) : undefined,
  });
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

// The whole read is guarded: a connection that breaks mid-body is as much an outage as one refused.
async function sha256Of(deps: AssetDeps, objectKey: string): Promise<{ sha256: string; etag: string | undefined }> {
  return guard('Asset storage', async () => {
    const object = await deps.s3.send(new GetObjectCommand({ Bucket: deps.bucket, Key: objectKey }));
    const hash = createHash('sha256');
    for await (const chunk of object.Body as AsyncIterable<Uint8Array>) hash.update(chunk);
    return { sha256: hash.digest('hex'), etag: object.ETag };
  });
}

/**
 * Copies the verified upload to the asset's own key. The copy must carry the very bytes that were
 * hashed: a PUT to the staging key in between changes its ETag, and the copy is then refused.
 */
async function promote(deps: AssetDeps, item: AssetItem, uploadKey: string, etag: string | undefined): Promise<void> {
  const copied = await guard('Asset storage', () =>
    deps.s3.send(
      new CopyObjectCommand({
        Bucket: deps.bucket,
        Key: item.objectKey,
        CopySource: `${deps.bucket}/${uploadKey}`,
        ContentType: item.contentType,
        MetadataDirective: 'REPLACE',
      }),
    ),
  );
  if (etag !== undefined && copied.CopyObjectResult?.ETag !== undefined && copied.CopyObjectResult.ETag !== etag) {
    await guard('Asset storage', () => deps.s3.send(new DeleteObjectCommand({ Bucket: deps.bucket, Key: item.objectKey })));
    throw new InvalidRequestError('Upload changed while completing', 'The file was uploaded again during completion; complete the upload again.');
  }
}

function isMissingObject(error: unknown): boolean {
  return (error as { name?: string }).name === 'NotFound' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;
}

/** RFC 8187 ext-value: encodeURIComponent leaves ' ( ) * bare, which filename* does not allow. */
function extValue(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Verifies the uploaded object (present, declared size and type, SHA-256 when declared — computed
 * here because not every S3-compatible store checks checksums) and marks the asset ready.
 * Completing a ready asset again returns it unchanged.
 */
export async function completeUpload(deps: AssetDeps, input: { workspaceId: string; assetId: string; sha256?: string }): Promise<Asset> {
  const item = await readAsset(deps, input.workspaceId, input.assetId);
  if (!item || item.status === 'deleted') throw notFound();
  const declared = input.sha256?.toLowerCase();
  if (declared && item.sha256 && declared !== item.sha256) {
    throw new InvalidRequestError('SHA-256 differs from the one declared', 'The sha256 sent now differs from the one given when the upload URL was created.');
  }
  if (item.status === 'ready') return toAsset(item);
  if (item.status !== 'pending') throw new InvalidRequestError('Asset is being deleted', 'A deleted asset cannot be completed; create a new upload.');

  // Assets created before uploads were staged were uploaded to their own key.
  const uploadKey = item.uploadKey ?? item.objectKey;
  const head = await guard('Asset storage', () => deps.s3.send(new HeadObjectCommand({ Bucket: deps.bucket, Key: uploadKey }))).catch((error: unknown) => {
    if (isMissingObject(error)) return undefined;
    throw error;
  });
  if (!head) throw new InvalidRequestError('Upload not found', 'PUT the file to the uploadUrl with the returned headers before completing.');
  if (head.ContentLength !== item.bytes) {
    throw new InvalidRequestError('Uploaded size differs', `The upload has ${head.ContentLength} bytes but ${item.bytes} were declared; upload the declared file again.`);
  }
  if (mediaTypeOf(head.ContentType) !== item.contentType) {
    throw new InvalidRequestError('Uploaded content type differs', `The upload was sent as ${head.ContentType ?? 'no type'}; send it with Content-Type: ${item.contentType}.`);
  }
  const expected = declared ?? item.sha256;
  const { sha256: actual, etag } = await sha256Of(deps, uploadKey);
  if (expected && actual !== expected) {
    // Unverified bytes are not kept: the client uploads again to the same URL while it is valid.
    await guard('Asset storage', () => deps.s3.send(new DeleteObjectCommand({ Bucket: deps.bucket, Key: uploadKey })));
    throw new InvalidRequestError('SHA-256 mismatch', 'The uploaded bytes do not match the declared sha256; upload the file again.');
  }
  if (uploadKey !== item.objectKey) await promote(deps, item, uploadKey, etag);
  const completedAt = (deps.now?.() ?? new Date()).toISOString();
  try {
    const { Attributes } = await guard('The asset store', () =>
      deps.dynamo.send(
        new UpdateCommand({
          TableName: deps.table,
          Key: keys.asset(input.workspaceId, input.assetId),
          UpdateExpression: 'SET #status = :ready, completedAt = :at, sha256 = :sha',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':ready': 'ready', ':pending': 'pending', ':at': completedAt, ':sha': actual },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    if (uploadKey !== item.objectKey) {
      // The staging copy is no longer needed; the bucket's lifecycle removes it if this fails.
      await deps.s3.send(new DeleteObjectCommand({ Bucket: deps.bucket, Key: uploadKey })).catch((error: unknown) =>
        log.warn('staging upload not removed', { assetId: input.assetId, error: serializeError(error) }),
      );
    }
    return toAsset(Attributes!);
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // A concurrent completion won; report the state it left.
    const current = await readAsset(deps, input.workspaceId, input.assetId);
    if (current?.status === 'ready') return toAsset(current);
    throw notFound();
  }
}

/** A short-lived presigned GET for a ready asset of this workspace. */
export async function createDownloadUrl(deps: AssetDeps, input: { workspaceId: string; assetId: string }) {
  const item = await readAsset(deps, input.workspaceId, input.assetId);
  if (!item || item.status === 'deleted' || item.status === 'deleting') throw notFound();
  if (item.status !== 'ready') {
    throw new NotFoundError('Asset not uploaded yet', 'Complete the upload (POST /api/v1/assets/{assetId}/complete) before asking for a download URL.');
  }
  const now = deps.now?.() ?? new Date();
  const downloadUrl = await getSignedUrl(
    deps.s3,
    new GetObjectCommand({
      Bucket: deps.bucket,
      Key: item.objectKey,
      ResponseContentType: item.contentType,
      ResponseContentDisposition: `attachment; filename*=UTF-8''${extValue(item.fileName)}`,
    }),
    { expiresIn: DOWNLOAD_URL_SECONDS },
  );
  return { downloadUrl, expiresAt: new Date(now.getTime() + DOWNLOAD_URL_SECONDS * 1000).toISOString() };
}

/**
 * Marks a ready, unused asset as deleting and queues the deletion. The state change is one
 * conditional write, so two concurrent deletes queue at most one message per asset.
 */
export async function requestDeletion(deps: AssetDeps, input: { workspaceId: string; assetId: string }) {
  const key = keys.asset(input.workspaceId, input.assetId);
  const item = await readAsset(deps, input.workspaceId, input.assetId);
  if (!item || item.status === 'deleted') throw notFound();
  if (inUse(item)) throw new ConflictError('Asset is in use', 'The asset is referenced (for example by a release); remove the reference before deleting it.');
  if (item.status === 'deleting') throw new ConflictError('Asset is already being deleted', 'The deletion is queued; the asset disappears shortly.');
  if (item.status !== 'ready') throw new ConflictError('Asset is not ready for deletion', 'Complete or abandon the upload first; only ready assets can be deleted.');
  try {
    await guard('The asset store', () =>
      deps.dynamo.send(
        new UpdateCommand({
          TableName: deps.table,
          Key: key,
          UpdateExpression: 'SET #status = :deleting, deletionRequestedAt = :at',
          ConditionExpression: '#status = :ready AND (attribute_not_exists(inUseBy) OR size(inUseBy) = :zero)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':deleting': 'deleting', ':ready': 'ready', ':zero': 0, ':at': (deps.now?.() ?? new Date()).toISOString() },
        }),
      ),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) {
      throw new ConflictError('Asset changed while deleting', 'The asset is in use or already being deleted; read it again before retrying.');
    }
    throw error;
  }
  try {
    await deps.sqs.send(new SendMessageCommand({ QueueUrl: deps.deletionQueueUrl, MessageBody: JSON.stringify({ workspaceId: input.workspaceId, assetId: input.assetId }) }));
  } catch (error) {
    // Without a queued message nothing would ever finish the deletion: put the asset back.
    await deps.dynamo
      .send(
        new UpdateCommand({
          TableName: deps.table,
          Key: key,
          UpdateExpression: 'SET #status = :ready REMOVE deletionRequestedAt',
          ConditionExpression: '#status = :deleting',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':ready': 'ready', ':deleting': 'deleting' },
        }),
      )
      .catch((revert: unknown) => log.error('asset deletion revert failed', { assetId: input.assetId, error: serializeError(revert) }));
    throw new UpstreamUnavailableError('The deletion queue is unavailable; retry shortly.', error);
  }
  return { assetId: input.assetId, status: 'deleting' as const };
}
