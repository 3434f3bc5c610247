import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import type { AssetDeps } from '#shared/services/assets.ts';
import type { ReleaseDeps } from '#shared/services/releases.ts';
import { AssetObjectStore } from '#shared/store/asset-objects.ts';
import { AssetUrlSigner } from '#shared/store/asset-urls.ts';
import { AssetStore } from '#shared/store/assets.ts';
import { DeletionQueue } from '#shared/store/deletion-queue.ts';
import { ReleaseStore } from '#shared/store/releases.ts';
import { waitFor } from '../support/expectations.ts';

let runtime: TestRuntime;
let aws: typeof import('#shared/wiring/dynamo.ts') & typeof import('#shared/wiring/s3.ts') & typeof import('#shared/wiring/sqs.ts');
let assets: typeof import('#shared/services/assets.ts');
let releases: typeof import('#shared/services/releases.ts');
/** The asset services' stores, and the table and bucket beneath them that the tests inspect. */
let deps: AssetDeps & { table: string; bucket: string };
let releaseDeps: ReleaseDeps;
let table: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  aws = {
    ...(await import('#shared/wiring/dynamo.ts')),
    ...(await import('#shared/wiring/s3.ts')),
    ...(await import('#shared/wiring/sqs.ts')),
  };
  assets = await import('#shared/services/assets.ts');
  releases = await import('#shared/services/releases.ts');
  const cfg = (await import('#shared/config.ts')).config();
  table = cfg.tables.workspace;
  deps = {
    assets: new AssetStore({ dynamo: aws.dynamo, table }),
    objects: new AssetObjectStore({ s3: aws.s3, bucket: cfg.buckets.assets }),
    urls: new AssetUrlSigner({ s3: aws.s3, bucket: cfg.buckets.assets }),
    deletionQueue: new DeletionQueue({ sqs: aws.sqs, queueUrl: cfg.queues.deletion }),
    table,
    bucket: cfg.buckets.assets,
  };
  releaseDeps = { releases: new ReleaseStore({ dynamo: aws.dynamo, table }), productSurfaceExists: async (_ws, id) => id === 'surface-1' };
});

afterAll(async () => {
  await runtime?.dispose();
});

const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

async function upload(workspaceId: string, bytes: Buffer, options: { sha256?: string; contentType?: 'image/png' } = {}) {
  const instructions = await assets.createUpload(deps, {
    workspaceId,
    body: { bytes: bytes.length, contentType: options.contentType ?? 'image/png', fileName: 'shot.png', classification: 'input', sha256: options.sha256 },
  });
  return instructions;
}

async function put(url: string, headers: Record<string, string>, body: Buffer) {
  const { 'Content-Length': _length, ...sendable } = headers;
  const response = await fetch(url, { method: 'PUT', headers: sendable, body });
  expect(response.status).toBe(200);
}

describe('asset services', () => {
  it('uploads, completes, downloads the same bytes, and deletes through the queue worker', async () => {
    // Prepare
    const workspaceId = `ws-${randomUUID()}`;
    const sha256 = createHash('sha256').update(png).digest('hex');
    const instructions = await upload(workspaceId, png, { sha256 });
    expect(instructions).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'image/png', 'Content-Length': String(png.length) } });
    await put(instructions.uploadUrl, instructions.headers, png);
    // Act
    const completed = await assets.completeUpload(deps, { workspaceId, assetId: instructions.assetId });
    const again = await assets.completeUpload(deps, { workspaceId, assetId: instructions.assetId });
    const { downloadUrl } = await assets.createDownloadUrl(deps, { workspaceId, assetId: instructions.assetId });
    const downloaded = Buffer.from(await (await fetch(downloadUrl)).arrayBuffer());
    const deletion = await assets.requestDeletion(deps, { workspaceId, assetId: instructions.assetId });
    // Assess
    expect(completed).toMatchObject({ status: 'ready', sha256, bytes: png.length });
    expect(again).toEqual(completed);
    expect(downloaded).toEqual(png);
    expect(deletion).toEqual({ assetId: instructions.assetId, status: 'deleting' });
    const item = await waitFor(async () => {
      const { Item } = await aws.dynamo.send(new GetCommand({ TableName: deps.table, Key: { pk: `WS#${workspaceId}`, sk: `ASSET#${instructions.assetId}` } }));
      return Item?.status === 'deleted' ? Item : undefined;
    });
    await expect(aws.s3.send(new HeadObjectCommand({ Bucket: deps.bucket, Key: item.objectKey }))).rejects.toMatchObject({ name: 'NotFound' });
  });

  it('refuses completion when the bytes do not match the declared sha256, and drops them', async () => {
    const workspaceId = `ws-${randomUUID()}`;
    const instructions = await upload(workspaceId, png, { sha256: 'a'.repeat(64) });
    await put(instructions.uploadUrl, instructions.headers, png);
    await expect(assets.completeUpload(deps, { workspaceId, assetId: instructions.assetId })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'SHA-256 mismatch',
    });
  });

  it.each([
    ['nothing was uploaded', Buffer.alloc(0), 'Upload not found'],
    ['the upload is shorter than declared', png.subarray(0, 10), 'Uploaded size differs'],
  ])('refuses completion when %s', async (_case, sent, message) => {
    const workspaceId = `ws-${randomUUID()}`;
    const instructions = await upload(workspaceId, png);
    if (sent.length > 0) await put(instructions.uploadUrl, instructions.headers, sent);
    await expect(assets.completeUpload(deps, { workspaceId, assetId: instructions.assetId })).rejects.toMatchObject({ status: 400, message });
  });

  it("answers 404 for another workspace's asset", async () => {
    const instructions = await upload(`ws-${randomUUID()}`, png);
    await put(instructions.uploadUrl, instructions.headers, png);
    await expect(assets.createDownloadUrl(deps, { workspaceId: `ws-${randomUUID()}`, assetId: instructions.assetId })).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('refuses with 409 to delete a pending, an in-use or an already deleting asset', async () => {
    const workspaceId = `ws-${randomUUID()}`;
    const pending = await upload(workspaceId, png);
    await expect(assets.requestDeletion(deps, { workspaceId, assetId: pending.assetId })).rejects.toMatchObject({ status: 409 });

    const used = await upload(workspaceId, png);
    await put(used.uploadUrl, used.headers, png);
    await assets.completeUpload(deps, { workspaceId, assetId: used.assetId });
    await aws.dynamo.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: { pk: `WS#${workspaceId}`, sk: `ASSET#${used.assetId}` },
        UpdateExpression: 'ADD inUseBy :release',
        ExpressionAttributeValues: { ':release': new Set(['release-1']) },
      }),
    );
    await expect(assets.requestDeletion(deps, { workspaceId, assetId: used.assetId })).rejects.toMatchObject({ status: 409, message: 'Asset is in use' });
  });
});

describe('release services', () => {
  const body = { title: 'Dark mode', benefitStatement: 'Easier on the eyes at night.', sourceUrls: ['https://example.com/pr/1'] };

  it('creates exactly one release for 50 concurrent requests with one Idempotency-Key', async () => {
    const workspaceId = `ws-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 50 }, () => releases.createRelease(releaseDeps, { workspaceId, body, idempotencyKey: 'key-1' })));
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.release.id)).size).toBe(1);
    const { Items = [] } = await aws.dynamo.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `WS#${workspaceId}`, ':prefix': 'RELEASE#' },
      }),
    );
    expect(Items).toHaveLength(1);
  });

  it('refuses a repeated Idempotency-Key with a different body', async () => {
    const workspaceId = `ws-${randomUUID()}`;
    await releases.createRelease(releaseDeps, { workspaceId, body, idempotencyKey: 'key-2' });
    await expect(releases.createRelease(releaseDeps, { workspaceId, body: { ...body, title: 'Other' }, idempotencyKey: 'key-2' })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'Idempotency-Key reused with a different body',
    });
  });

  it('scopes Idempotency-Keys to the workspace', async () => {
    const first = await releases.createRelease(releaseDeps, { workspaceId: `ws-${randomUUID()}`, body, idempotencyKey: 'shared' });
    const second = await releases.createRelease(releaseDeps, { workspaceId: `ws-${randomUUID()}`, body: { ...body, title: 'x' }, idempotencyKey: 'shared' });
    expect(second.created).toBe(true);
    expect(second.release.id).not.toBe(first.release.id);
  });

  it('lists releases newest first within the limit', async () => {
    const workspaceId = `ws-${randomUUID()}`;
    for (const title of ['one', 'two', 'three']) {
      await releases.createRelease(releaseDeps, { workspaceId, body: { ...body, title } });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const listed = await releases.listReleases(releaseDeps, { workspaceId, limit: 2 });
    expect(listed.releases.map((release) => release.title)).toEqual(['three', 'two']);
  });

  it('pages through every release with the cursor, newest first, and ends without one', async () => {
    // Prepare
    const workspaceId = `ws-${randomUUID()}`;
    const titles = Array.from({ length: 7 }, (_, i) => `r${i}`);
    for (const title of titles) await releases.createRelease(releaseDeps, { workspaceId, body: { ...body, title } });

    // Act
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await releases.listReleases(releaseDeps, { workspaceId, limit: 3, cursor });
      pages.push(page.releases.map((release) => release.title));
      cursor = page.nextCursor;
    } while (cursor);

    // Assess
    expect(pages).toEqual([['r6', 'r5', 'r4'], ['r3', 'r2', 'r1'], ['r0']]);
  });

  it('gives no cursor when the page holds the last release exactly', async () => {
    const workspaceId = `ws-${randomUUID()}`;
    for (const title of ['a', 'b']) await releases.createRelease(releaseDeps, { workspaceId, body: { ...body, title } });

    expect(await releases.listReleases(releaseDeps, { workspaceId, limit: 2 })).toEqual({
      releases: [expect.objectContaining({ title: 'b' }), expect.objectContaining({ title: 'a' })],
    });
  });

  it.each([
    ['not base64url', '!!!'],
    ['a cursor with another version', Buffer.from('r9.0198a1b2-0000-7000-8000-000000000000.x').toString('base64url')],
    ['a cursor whose release id is not a UUID', Buffer.from('r1.RELEASE#x.x').toString('base64url')],
    ['an edited cursor', 'cjEuMDE5OGExYjItMDAwMC03MDAwLTgwMDAtMDAwMDAwMDAwMDAwLmFhYWFhYWFhYWFh'],
  ])('refuses %s with 400', async (_case, cursor) => {
    await expect(releases.listReleases(releaseDeps, { workspaceId: `ws-${randomUUID()}`, limit: 3, cursor })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'Invalid cursor',
    });
  });

  it("refuses another workspace's cursor with 400, so it reveals nothing of that list", async () => {
    // Prepare: a real cursor of workspace A
    const a = `ws-${randomUUID()}`;
    for (const title of ['1', '2']) await releases.createRelease(releaseDeps, { workspaceId: a, body: { ...body, title } });
    const { nextCursor } = await releases.listReleases(releaseDeps, { workspaceId: a, limit: 1 });
    expect(nextCursor).toEqual(expect.any(String));

    // Act + Assess
    await expect(releases.listReleases(releaseDeps, { workspaceId: `ws-${randomUUID()}`, limit: 1, cursor: nextCursor })).rejects.toMatchObject({
      status: 400,
      message: 'Invalid cursor',
    });
  });

  it('refuses a product surface of another workspace', async () => {
    await expect(
      releases.createRelease(releaseDeps, { workspaceId: `ws-${randomUUID()}`, body: { ...body, productSurfaceId: 'elsewhere' } }),
    ).rejects.toMatchObject({ status: 400, message: 'Unknown product surface' });
  });
});

describe('deletion worker', () => {
  it('leaves a failing message in the dead-letter queue after the retries, with the asset record intact', async () => {
    // Prepare: a queue pair with a short visibility timeout, and a worker whose storage refuses
    const { pollOnce } = await import('#infra/local/sqs-poller.ts');
    const { DeletionMessage, deleteAssetObject } = await import('#shared/services/asset-deletion.ts');
    const { batchHandler } = await import('#shared/sqs/batch.ts');
    const name = `dlq-test-${randomUUID().slice(0, 8)}`;
    // Queues made and read with the SDK, as the local poller reads them; the message sent by the functions' client.
    const admin = new SQSClient({ region: 'us-east-1', endpoint: runtime.env.SQS_ENDPOINT, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    const dlq = await admin.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
    const { Attributes } = await admin.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
    const queue = await admin.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: { VisibilityTimeout: '1', RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: 2 }) },
      }),
    );
    const workspaceId = `ws-${randomUUID()}`;
    const assetId = randomUUID();
    const key = { pk: `WS#${workspaceId}`, sk: `ASSET#${assetId}` };
    await aws.dynamo.send(new PutCommand({ TableName: deps.table, Item: { ...key, assetId, status: 'deleting', objectKey: 'x' } }));
    await aws.sqs.send(new SendMessageCommand({ QueueUrl: queue.QueueUrl, MessageBody: JSON.stringify({ workspaceId, assetId }) }));
    const failing = { assets: new AssetStore({ dynamo: aws.dynamo, table }), objects: new AssetObjectStore({ s3: aws.s3, bucket: 'no-such-bucket' }) };
    const worker = batchHandler({ name: 'asset deletion', body: DeletionMessage }, async (message) => ({ outcome: await deleteAssetObject(failing, message) }));
    const poller = {
      client: admin,
      queueUrl: queue.QueueUrl!,
      queueArn: '',
      region: 'us-east-1',
      batchSize: 10,
      timeoutSeconds: 5,
      functionName: 'test',
      worker,
    };
    // Act: receive until the queue has redriven the message
    const inDlq = await waitFor(async () => {
      await pollOnce(poller);
      const { Messages } = await admin.send(new ReceiveMessageCommand({ QueueUrl: dlq.QueueUrl, WaitTimeSeconds: 0 }));
      return Messages?.length ? Messages : undefined;
    }, 20_000);
    // Assess
    expect(JSON.parse(inDlq[0]!.Body!)).toEqual({ workspaceId, assetId });
    const { Item } = await aws.dynamo.send(new GetCommand({ TableName: deps.table, Key: key }));
    expect(Item).toMatchObject({ status: 'deleting', objectKey: 'x' });
  });
});
