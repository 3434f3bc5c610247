import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as admin from '#shared/services/identity-admin.ts';
import { keys } from '#shared/store/keys.ts';
import { connect, type Connection } from '#infra/admin/connection.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { inOneWindow } from '../support/clock.ts';
import { expectedEnvelope, waitFor } from '../support/expectations.ts';

let runtime: TestRuntime;
let db: Connection;
let deps: admin.AdminDeps;
let dynamo: DynamoDBDocumentClient;
const org = { a: { id: '', workspaceId: '', key: '' }, b: { id: '', workspaceId: '', key: '' }, free: { id: '', workspaceId: '', key: '' } };
let readOnlyKey = '';
let memberCookie = '';

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000002000000020806000000f478d4fa', 'hex');

beforeAll(async () => {
  runtime = await startTestRuntime();
  db = connect(runtime.env);
  deps = { store: db.store };
  const credentials = { accessKeyId: 'x', secretAccessKey: 'x' };
  dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', endpoint: runtime.env.DYNAMODB_ENDPOINT, credentials }));
  await admin.createUser(deps, { email: 'owner@example.com', name: 'Owner' });
  await admin.createUser(deps, { email: 'member@example.com', name: 'Member' });
  for (const [name, plan] of [
    ['a', 'pro'],
    ['b', 'pro'],
    ['free', 'free'],
  ] as const) {
    const { organization } = await admin.createOrganization(deps, { name: `Org ${name}`, plan, ownerUserId: 'owner@example.com' });
    org[name].id = organization.organizationId;
    org[name].workspaceId = organization.workspaceId;
    org[name].key = (await admin.issueApiKey(deps, { organizationId: organization.organizationId, name: 'test' })).key;
  }
  readOnlyKey = (await admin.issueApiKey(deps, { organizationId: org.a.id, name: 'reader', scopes: ['artifact:read'] })).key;
  await admin.addMember(deps, { organizationId: org.a.id, user: 'member@example.com', role: 'member' });
  memberCookie = `easel.session_token=${(await admin.createSession(deps, { user: 'member@example.com', organizationId: org.a.id })).token}`;
});

afterAll(async () => {
  db?.close();
  await runtime?.dispose();
});

interface Call {
  method?: string;
  key?: string | null;
  cookie?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

async function call(path: string, { method = 'GET', key, cookie, body, headers = {} }: Call = {}) {
  const all: Record<string, string> = { ...headers };
  if (key !== null) all['x-api-key'] = key ?? org.a.key;
  if (cookie) all.cookie = cookie;
  if (body !== undefined) all['content-type'] ??= 'application/json';
  const response = await fetch(`${runtime.url}${path}`, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const envelope = (status: number, code: string) => expectedEnvelope(runtime.url, status, code);

async function readyAsset(key = org.a.key, bytes = png) {
  const created = await call('/api/v1/assets/upload-url', {
    method: 'POST',
    key,
    body: { bytes: bytes.length, contentType: 'image/png', fileName: 'shot.png' },
  });
  expect(created.status).toBe(201);
  const { 'Content-Length': _length, ...headers } = created.body.headers as Record<string, string>;
  expect((await fetch(created.body.uploadUrl, { method: 'PUT', headers, body: bytes })).status).toBe(200);
  expect((await call(`/api/v1/assets/${created.body.assetId}/complete`, { method: 'POST', key })).status).toBe(200);
  return created.body.assetId as string;
}

describe('assets over HTTP', () => {
  it('creates, uploads, completes, downloads identical bytes, deletes, and the worker removes the object', async () => {
    // Prepare
    const sha256 = createHash('sha256').update(png).digest('hex');
    const created = await call('/api/v1/assets/upload-url', {
      method: 'POST',
      body: { bytes: png.length, contentType: 'image/png', fileName: 'shot.png', sha256 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      assetId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: 'PUT',
      headers: { 'Content-Type': 'image/png', 'Content-Length': String(png.length), 'x-amz-checksum-sha256': expect.any(String) },
      expiresAt: expect.any(String),
      asset: { status: 'pending', classification: 'input' },
    });
    const { 'Content-Length': _length, ...headers } = created.body.headers;
    // Act
    const put = await fetch(created.body.uploadUrl, { method: 'PUT', headers, body: png });
    const completed = await call(`/api/v1/assets/${created.body.assetId}/complete`, { method: 'POST', body: { sha256 } });
    const download = await call(`/api/v1/assets/${created.body.assetId}/download-url`);
    const bytes = Buffer.from(await (await fetch(download.body.downloadUrl)).arrayBuffer());
    const deleted = await call(`/api/v1/assets/${created.body.assetId}`, { method: 'DELETE' });
    // Assess
    expect(put.status).toBe(200);
    expect(completed).toMatchObject({ status: 200, body: { assetId: created.body.assetId, status: 'ready', sha256 } });
    expect(download.status).toBe(200);
    expect(bytes).toEqual(png);
    expect(deleted).toMatchObject({ status: 202, body: { assetId: created.body.assetId, status: 'deleting' } });
    const record = await waitFor(async () => {
      const { Item } = await dynamo.send(new GetCommand({ TableName: runtime.env.WORKSPACE_TABLE, Key: keys.asset(org.a.workspaceId, created.body.assetId) }));
      return Item?.status === 'deleted' ? Item : undefined;
    });
    const s3 = new S3Client({
      region: 'us-east-1',
      endpoint: runtime.env.S3_ENDPOINT,
      forcePathStyle: true,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    await expect(s3.send(new HeadObjectCommand({ Bucket: runtime.env.ASSETS_BUCKET, Key: record.objectKey }))).rejects.toMatchObject({ name: 'NotFound' });
    expect((await call(`/api/v1/assets/${created.body.assetId}/download-url`)).status).toBe(404);
  });

  it('keeps the verified bytes when the upload URL is used again after completion', async () => {
    // Prepare: a completed asset
    const created = await call('/api/v1/assets/upload-url', { method: 'POST', body: { bytes: png.length, contentType: 'image/png', fileName: 'v.png' } });
    const { 'Content-Length': _length, ...headers } = created.body.headers;
    await fetch(created.body.uploadUrl, { method: 'PUT', headers, body: png });
    expect((await call(`/api/v1/assets/${created.body.assetId}/complete`, { method: 'POST' })).status).toBe(200);
    // Act: the same URL (still valid) carries other bytes of the same type and size
    const other = Buffer.from(png).fill(0x41, 8);
    await fetch(created.body.uploadUrl, { method: 'PUT', headers, body: other });
    const again = await call(`/api/v1/assets/${created.body.assetId}/complete`, { method: 'POST' });
    const download = await call(`/api/v1/assets/${created.body.assetId}/download-url`);
    // Assess
    expect(again.body.sha256).toBe(createHash('sha256').update(png).digest('hex'));
    expect(Buffer.from(await (await fetch(download.body.downloadUrl)).arrayBuffer())).toEqual(png);
  });

  it('refuses completion when the bytes do not match the declared sha256', async () => {
    const created = await call('/api/v1/assets/upload-url', {
      method: 'POST',
      body: { bytes: png.length, contentType: 'image/png', fileName: 'a.png', sha256: 'b'.repeat(64) },
    });
    const { 'Content-Length': _length, ...headers } = created.body.headers;
    await fetch(created.body.uploadUrl, { method: 'PUT', headers, body: png });
    const completed = await call(`/api/v1/assets/${created.body.assetId}/complete`, { method: 'POST' });
    expect(completed).toMatchObject({ status: 400, body: { ...envelope(400, 'invalid_request'), error: 'SHA-256 mismatch' } });
  });

  it("answers 404 to a key of workspace B on workspace A's asset", async () => {
    const assetId = await readyAsset();
    for (const [method, path] of [
      ['GET', `/api/v1/assets/${assetId}/download-url`],
      ['POST', `/api/v1/assets/${assetId}/complete`],
      ['DELETE', `/api/v1/assets/${assetId}`],
    ] as const) {
      const response = await call(path, { method, key: org.b.key });
      expect(response).toMatchObject({ status: 404, body: envelope(404, 'not_found') });
    }
  });

  it('refuses with 409 to delete an asset still pending or in use', async () => {
    const pending = await call('/api/v1/assets/upload-url', { method: 'POST', body: { bytes: 10, contentType: 'image/png', fileName: 'p.png' } });
    expect(await call(`/api/v1/assets/${pending.body.assetId}`, { method: 'DELETE' })).toMatchObject({ status: 409, body: envelope(409, 'invalid_request') });
    const used = await readyAsset();
    await dynamo.send(
      new UpdateCommand({
        TableName: runtime.env.WORKSPACE_TABLE,
        Key: keys.asset(org.a.workspaceId, used),
        UpdateExpression: 'ADD inUseBy :release',
        ExpressionAttributeValues: { ':release': new Set(['release-1']) },
      }),
    );
    expect(await call(`/api/v1/assets/${used}`, { method: 'DELETE' })).toMatchObject({ status: 409, body: { error: 'Asset is in use' } });
  });

  it('refuses deletion on the free plan with the entitlement envelope', async () => {
    const response = await call(`/api/v1/assets/${randomUUID()}`, { method: 'DELETE', key: org.free.key });
    expect(response).toMatchObject({
      status: 403,
      body: { ...envelope(403, 'workspace_feature_not_entitled'), currentPlan: 'free', requiredPlan: 'pro', feature: 'asset:delete' },
    });
  });

  it('counts the write quota exactly under concurrency', async () => {
    // Prepare: a fresh pro workspace (limit 120 a minute), all in one minute window
    const { organization } = await admin.createOrganization(deps, { name: 'Quota', plan: 'pro', ownerUserId: 'owner@example.com' });
    const key = (await admin.issueApiKey(deps, { organizationId: organization.organizationId, name: 'quota' })).key;
    // Act: every attempt counts, whatever the asset (these do not exist)
    const responses = await inOneWindow(60, () =>
      Promise.all(Array.from({ length: 130 }, () => call(`/api/v1/assets/${randomUUID()}`, { method: 'DELETE', key }))),
    );
    // Assess
    expect(responses.filter((response) => response.status === 404)).toHaveLength(120);
    const refused = responses.filter((response) => response.status === 429);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.body).toEqual({ ...envelope(429, 'workspace_quota_exceeded'), limit: 120, quota: 'api:write:minute' });
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('releases over HTTP', () => {
  const release = { title: 'Dark mode', benefitStatement: 'Easier on the eyes.', sourceUrls: ['https://example.com/pr/7'] };

  it('creates one release for 50 concurrent requests with one Idempotency-Key', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        call('/api/v1/releases', { method: 'POST', key: org.b.key, body: release, headers: { 'idempotency-key': 'concurrent-1' } }),
      ),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 200)).toHaveLength(49);
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
    const listed = await call('/api/v1/releases', { key: org.b.key });
    expect(listed.body.releases.filter((item: { title: string }) => item.title === 'Dark mode')).toHaveLength(1);
  });

  it('refuses a repeated Idempotency-Key with another body', async () => {
    await call('/api/v1/releases', { method: 'POST', body: release, headers: { 'idempotency-key': 'repeat-1' } });
    const response = await call('/api/v1/releases', { method: 'POST', body: { ...release, title: 'Else' }, headers: { 'idempotency-key': 'repeat-1' } });
    expect(response).toMatchObject({ status: 400, body: { ...envelope(400, 'invalid_request'), error: 'Idempotency-Key reused with a different body' } });
  });

  it('lists releases newest first with the limit', async () => {
    const { organization } = await admin.createOrganization(deps, { name: 'Lister', plan: 'pro', ownerUserId: 'owner@example.com' });
    const key = (await admin.issueApiKey(deps, { organizationId: organization.organizationId, name: 'lister' })).key;
    for (const title of ['first', 'second', 'third']) {
      expect((await call('/api/v1/releases', { method: 'POST', key, body: { ...release, title } })).status).toBe(201);
    }
    const listed = await call('/api/v1/releases?limit=2', { key });
    expect(listed.status).toBe(200);
    expect(listed.body.releases.map((item: { title: string }) => item.title)).toEqual(['third', 'second']);
  });

  it('reaches past the newest 100 releases with the cursor', async () => {
    // Prepare: 105 releases in a fresh workspace
    const { organization } = await admin.createOrganization(deps, { name: 'Prolific', plan: 'pro', ownerUserId: 'owner@example.com' });
    const key = (await admin.issueApiKey(deps, { organizationId: organization.organizationId, name: 'pager' })).key;
    for (let batch = 0; batch < 105; batch += 15) {
      const created = await Promise.all(
        Array.from({ length: Math.min(15, 105 - batch) }, (_, i) =>
          call('/api/v1/releases', { method: 'POST', key, body: { ...release, title: `r${batch + i}` } }),
        ),
      );
      expect(created.map((response) => response.status)).toEqual(created.map(() => 201));
    }

    // Act
    const first = await call('/api/v1/releases?limit=100', { key });
    const second = await call(`/api/v1/releases?limit=100&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key });

    // Assess: 100 then 5, no overlap, no cursor at the end
    expect(first.body.releases).toHaveLength(100);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect(second.status).toBe(200);
    expect(second.body.releases).toHaveLength(5);
    expect(second.body.nextCursor).toBeUndefined();
    const titles = [...first.body.releases, ...second.body.releases].map((item: { title: string }) => item.title);
    expect(new Set(titles).size).toBe(105);
  });

  it("answers another workspace's cursor with 400 invalid_request", async () => {
    for (const title of ['b1', 'b2']) await call('/api/v1/releases', { method: 'POST', key: org.b.key, body: { ...release, title } });
    const mine = await call('/api/v1/releases?limit=1', { key: org.b.key });
    expect(mine.body.nextCursor).toEqual(expect.any(String));

    const response = await call(`/api/v1/releases?cursor=${encodeURIComponent(mine.body.nextCursor)}`);

    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope(400, 'invalid_request'));
  });

  it('accepts a product surface of the same workspace only', async () => {
    const surface = await admin.createProductSurface(deps, { organizationId: org.a.id, name: 'Web' });
    const ok = await call('/api/v1/releases', { method: 'POST', body: { ...release, productSurfaceId: surface.productSurfaceId } });
    expect(ok.status).toBe(201);
    const other = await call('/api/v1/releases', { method: 'POST', key: org.b.key, body: { ...release, productSurfaceId: surface.productSurfaceId } });
    expect(other).toMatchObject({ status: 400, body: { ...envelope(400, 'invalid_request'), error: 'Unknown product surface' } });
  });

  it('lets a member with the permission use a workspace route through the session cookie', async () => {
    const response = await call('/api/v1/releases', { key: null, cookie: memberCookie });
    expect(response.status).toBe(200);
  });
});

describe('source apps over HTTP', () => {
  it('registers a source app with the generic provider by default', async () => {
    const response = await call('/api/v1/source-apps', { method: 'POST', body: { name: 'GitHub', allowedHosts: ['https://github.com'] } });
    expect(response).toMatchObject({
      status: 201,
      body: { id: expect.any(String), name: 'GitHub', provider: 'generic', allowedHosts: ['https://github.com'] },
    });
  });
});

describe('workspace request problems', () => {
  const asset = randomUUID();
  const routes = [
    ['GET', '/api/v1/releases', undefined],
    ['POST', '/api/v1/releases', { title: 't', benefitStatement: 'b' }],
    ['POST', '/api/v1/source-apps', { name: 'n', allowedHosts: ['https://a.example'] }],
    ['POST', '/api/v1/assets/upload-url', { bytes: 1, contentType: 'image/png', fileName: 'f.png' }],
    ['POST', `/api/v1/assets/${asset}/complete`, undefined],
    ['GET', `/api/v1/assets/${asset}/download-url`, undefined],
    ['DELETE', `/api/v1/assets/${asset}`, undefined],
  ] as const;

  it.each(routes)('answers %s %s without credentials with 401', async (method, path, body) => {
    expect(await call(path, { method, key: null, body })).toMatchObject({ status: 401, body: envelope(401, 'unauthorized') });
  });

  it.each(routes.filter(([method]) => method !== 'GET'))('answers %s %s with a key lacking the scope with 403', async (method, path, body) => {
    expect(await call(path, { method, key: readOnlyKey, body })).toMatchObject({ status: 403, body: envelope(403, 'forbidden') });
  });

  it.each([
    ['GET', '/api/v1/releases?limit=0', 'invalid_request', undefined],
    ['GET', '/api/v1/releases?limit=101', 'invalid_request', undefined],
    ['GET', '/api/v1/releases?limit=ten', 'invalid_request', undefined],
    ['POST', '/api/v1/releases', 'invalid_request', { title: '', benefitStatement: 'b' }],
    ['POST', '/api/v1/releases', 'invalid_request', { title: 't', benefitStatement: 'b', description: 'Hi <script>alert(1)</script>' }],
    ['POST', '/api/v1/releases', 'invalid_url', { title: 't', benefitStatement: 'b', sourceUrls: ['ftp://example.com/x'] }],
    [
      'POST',
      '/api/v1/releases',
      'invalid_request',
      { title: 't', benefitStatement: 'b', sourceUrls: Array.from({ length: 21 }, (_, i) => `https://e.example/${i}`) },
    ],
    ['POST', '/api/v1/releases', 'invalid_request', { title: 't', benefitStatement: 'b', extra: true }],
    ['POST', '/api/v1/source-apps', 'invalid_request', { name: 'n', allowedHosts: [] }],
    ['POST', '/api/v1/source-apps', 'invalid_url', { name: 'n', allowedHosts: ['not a uri'] }],
    ['POST', '/api/v1/assets/upload-url', 'invalid_request', { bytes: 0, contentType: 'image/png', fileName: 'f.png' }],
    ['POST', '/api/v1/assets/upload-url', 'invalid_request', { bytes: 52_428_801, contentType: 'image/png', fileName: 'f.png' }],
    ['POST', '/api/v1/assets/upload-url', 'unsupported_value', { bytes: 1, contentType: 'text/html', fileName: 'f.png' }],
    ['POST', '/api/v1/assets/upload-url', 'invalid_request', { bytes: 1, contentType: 'image/png', fileName: 'x'.repeat(129) }],
    ['POST', '/api/v1/assets/upload-url', 'invalid_request', { bytes: 1, contentType: 'image/png', fileName: 'f.png', sha256: 'xyz' }],
    ['POST', '/api/v1/assets/not-a-uuid/complete', 'invalid_request', undefined],
    ['GET', '/api/v1/assets/not-a-uuid/download-url', 'invalid_request', undefined],
    ['DELETE', '/api/v1/assets/not-a-uuid', 'invalid_request', undefined],
  ])('answers %s %s with 400 %s', async (method, path, code, body) => {
    expect(await call(path, { method, body })).toMatchObject({ status: 400, body: envelope(400, code!) });
  });

  it('refuses an Idempotency-Key longer than 128 characters', async () => {
    const response = await call('/api/v1/releases', {
      method: 'POST',
      body: { title: 't', benefitStatement: 'b' },
      headers: { 'idempotency-key': 'k'.repeat(129) },
    });
    expect(response).toMatchObject({ status: 400, body: envelope(400, 'invalid_request') });
  });
});
