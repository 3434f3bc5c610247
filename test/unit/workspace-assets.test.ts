import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { s3Client } from '#shared/aws/s3.ts';
import { SDK_LIMITS } from '#shared/config.ts';
import { completeUpload, createDownloadUrl } from '#shared/services/assets.ts';
import type { AssetDeps } from '#shared/services/assets.ts';
import { AssetObjectStore } from '#shared/store/asset-objects.ts';
import { AssetUrlSigner } from '#shared/store/asset-urls.ts';
import { AssetStore } from '#shared/store/assets.ts';
import { DeletionQueue } from '#shared/store/deletion-queue.ts';
import { keys } from '#shared/store/keys.ts';
import { MOCK_ASSET_ID, mockAssetItem } from '../support/asset-items.ts';
import { mockDynamo, mockS3, s3Error, stubbedDynamo, stubbedS3, stubbedSqs } from '../support/mock-dynamo.ts';

const ddb = mockDynamo();
const storage = mockS3();
afterAll(() => {
  ddb.restore();
  storage.restore();
});

const ASSET_ID = MOCK_ASSET_ID;
const deps: AssetDeps = {
  assets: new AssetStore({ dynamo: stubbedDynamo(), table: 'workspace' }),
  objects: new AssetObjectStore({ s3: stubbedS3(), bucket: 'assets' }),
  urls: new AssetUrlSigner({
    s3: s3Client({ region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, ...SDK_LIMITS }),
    bucket: 'assets',
  }),
  deletionQueue: new DeletionQueue({ sqs: stubbedSqs(), queueUrl: 'https://sqs.test/deletion' }),
};

function storedAsset(fields: Record<string, unknown>) {
  ddb.on(GetCommand, { Key: keys.asset('ws_a', ASSET_ID) }).resolves({ Item: mockAssetItem(fields) });
}

beforeEach(() => {
  ddb.reset();
  storage.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
});

describe('completeUpload', () => {
  it('answers 503 upstream_unavailable when storage drops the connection while the upload is hashed', async () => {
    // Prepare: the object is there with the declared size and type, but its body breaks off on
    // every attempt (what the SDK then throws: test/integration/aws-clients.test.ts)
    storedAsset({ status: 'pending' });
    storage.on(HeadObjectCommand).resolves({ ContentLength: 4, ContentType: 'image/png' });
    storage.on(GetObjectCommand).rejects(Object.assign(new Error('aborted'), { code: 'ECONNRESET', $metadata: { attempts: 3 } }));
    // Act
    const completing = completeUpload(deps, { workspaceId: 'ws_a', assetId: ASSET_ID });
    // Assess
    await expect(completing).rejects.toMatchObject({ status: 503, code: 'upstream_unavailable' });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('answers 503 upstream_unavailable when storage fails the check of the upload', async () => {
    storedAsset({ status: 'pending' });
    storage.on(HeadObjectCommand).rejects(s3Error('SlowDown', 503, 'Please reduce your request rate.'));
    await expect(completeUpload(deps, { workspaceId: 'ws_a', assetId: ASSET_ID })).rejects.toMatchObject({ status: 503, code: 'upstream_unavailable' });
  });

  it('answers 400 when nothing was uploaded yet', async () => {
    storedAsset({ status: 'pending' });
    storage.on(HeadObjectCommand).rejects(s3Error('NotFound', 404, 'S3 answered 404 without an error code'));
    await expect(completeUpload(deps, { workspaceId: 'ws_a', assetId: ASSET_ID })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'Upload not found',
    });
  });
});

describe('createDownloadUrl', () => {
  it('percent-encodes every character the filename* parameter does not allow bare', async () => {
    storedAsset({ status: 'ready', fileName: "it's (1)*.png" });
    const { downloadUrl } = await createDownloadUrl(deps, { workspaceId: 'ws_a', assetId: ASSET_ID });
    expect(new URL(downloadUrl).searchParams.get('response-content-disposition')).toBe("attachment; filename*=UTF-8''it%27s%20%281%29%2A.png");
  });

  it('answers 404 for an asset that is not in this workspace', async () => {
    await expect(createDownloadUrl(deps, { workspaceId: 'ws_b', assetId: ASSET_ID })).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});
