/**
 * The capture cache on the embedded DynamoDB and S3, and the internal purge route that
 * maintains it. No browser: entries are written through the cache itself.
 */
import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemKey, objectKey } from '#shared/store/capture-cache.ts';
import type { CaptureCache, CaptureKey } from '#shared/store/capture-cache.ts';
import { call } from '../support/client.ts';
import { startTestRuntime } from '../support/local.ts';
import type { TestRuntime } from '../support/local.ts';
import { expectedEnvelope } from '../support/expectations.ts';

let runtime: TestRuntime;
let cache: CaptureCache;
let aws: typeof import('#shared/wiring/dynamo.ts') & typeof import('#shared/wiring/s3.ts');
let cfg: import('#shared/config.ts').Config;

beforeAll(async () => {
  runtime = await startTestRuntime();
  cache = (await import('#shared/wiring/capture-cache.ts')).captureCache();
  aws = { ...(await import('#shared/wiring/dynamo.ts')), ...(await import('#shared/wiring/s3.ts')) };
  cfg = (await import('#shared/config.ts')).config();
});

afterAll(async () => {
  await runtime?.dispose();
});

const png = (label: string) => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(label)]);
const key = (url: string, deviceType: CaptureKey['deviceType'] = 'desktop', colorScheme: CaptureKey['colorScheme'] = 'light'): CaptureKey => ({
  url,
  deviceType,
  colorScheme,
});
const objectExists = (k: CaptureKey) =>
  aws.s3.send(new HeadObjectCommand({ Bucket: cfg.buckets.cache, Key: objectKey(k) })).then(
    () => true,
    () => false,
  );

describe('capture cache', () => {
  it('returns what was stored, with the strategy that produced it', async () => {
    // Prepare
    const k = key(`https://example.com/${randomUUID()}`);

    // Act
    await cache.put(k, { png: png('a'), strategy: 'local-chromium' }, 60);
    const hit = await cache.get(k);

    // Assess
    expect(hit).toEqual({ png: new Uint8Array(png('a')), strategy: 'local-chromium', capturedAt: expect.any(Number) });
  });

  it('treats an entry whose expiresAt has passed as absent, though DynamoDB has not removed it yet', async () => {
    // Prepare: stored two hours ago with a one-hour lifetime
    const k = key(`https://example.com/${randomUUID()}`);
    await cache.put(k, { png: png('old'), strategy: 'local-chromium' }, 3_600, Date.now() - 7_200_000);

    // Act
    const hit = await cache.get(k);

    // Assess
    const { Item } = await aws.dynamo.send(new GetCommand({ TableName: cfg.tables.cache, Key: { pk: itemKey(k) } }));
    expect(Item).toBeDefined();
    expect(hit).toBeUndefined();
  });

  it('treats an entry whose object is gone as absent', async () => {
    // Prepare
    const k = key(`https://example.com/${randomUUID()}`);
    await cache.put(k, { png: png('b'), strategy: 'local-chromium' }, 60);
    await aws.s3.send(new DeleteObjectCommand({ Bucket: cfg.buckets.cache, Key: objectKey(k) }));

    // Act + Assess
    expect(await cache.get(k)).toBeUndefined();
  });

  it('keeps the device types and colour schemes of one URL apart', async () => {
    // Prepare
    const url = `https://example.com/${randomUUID()}`;
    await cache.put(key(url, 'mobile', 'dark'), { png: png('mobile-dark'), strategy: 'local-chromium' }, 60);

    // Act + Assess
    expect(await cache.get(key(url, 'mobile', 'light'))).toBeUndefined();
    expect(await cache.get(key(url, 'desktop', 'dark'))).toBeUndefined();
    expect((await cache.get(key(url, 'mobile', 'dark')))?.png).toEqual(new Uint8Array(png('mobile-dark')));
  });

  it('keeps each options variant of one URL apart from the others and from the option-less entry', async () => {
    // Prepare
    const url = `https://example.com/${randomUUID()}`;
    const full = { ...key(url), variant: 'a'.repeat(32) };
    await cache.put(full, { png: png('full'), strategy: 'local-chromium', extent: { truncated: true, capturedHeight: 16_384 } }, 60);

    // Act + Assess
    expect(await cache.get(key(url))).toBeUndefined();
    expect(await cache.get({ ...key(url), variant: 'b'.repeat(32) })).toBeUndefined();
    expect(await cache.get(full)).toEqual({
      png: new Uint8Array(png('full')),
      strategy: 'local-chromium',
      capturedAt: expect.any(Number),
      extent: { truncated: true, capturedHeight: 16_384 },
    });
    expect(itemKey(full)).toBe(`${itemKey(key(url))}#${full.variant}`);
  });
});

describe('POST /internal/cache/purge', () => {
  const secret = () => runtime.env.INTERNAL_SECRET!;
  const purge = (body: unknown, headers: Record<string, string> = { 'x-easel-internal-secret': secret() }) =>
    call(runtime.url, '/internal/cache/purge', { body, headers });
  const envelope = (status: number, code: string) => expectedEnvelope(runtime.url, status, code);

  it.each([
    ['without the secret header', {}],
    ['with a wrong secret', { 'x-easel-internal-secret': 'not-the-secret-not-the-secret-not-it' }],
    ['with the secret in another header', { authorization: `Bearer ${'x'.repeat(40)}` }],
  ])('refuses a request %s with 401, before looking at the body', async (_case, headers) => {
    // Act
    const response = await purge({}, headers as Record<string, string>);

    // Assess
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ ...envelope(401, 'unauthorized'), hint: 'This maintenance route needs the internal secret in X-Easel-Internal-Secret.' });
  });

  it('purges every device and scheme of one URL, however the URL is spelled, and nothing else', async () => {
    // Prepare
    const path = `/page-${randomUUID()}`;
    const url = `https://example.com${path}`;
    const other = key(`https://example.com/other-${randomUUID()}`);
    const entries = [key(url), key(url, 'mobile', 'dark')];
    for (const k of [...entries, other]) await cache.put(k, { png: png(k.url), strategy: 'local-chromium' }, 60);

    // Act
    const response = await purge({ url: `HTTPS://EXAMPLE.com:443${path}#top` });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ purged: 2, url });
    for (const k of entries) {
      expect(await cache.get(k)).toBeUndefined();
      expect(await objectExists(k)).toBe(false);
    }
    expect(await cache.get(other)).toBeDefined();
  });

  it('purges every options variant of one URL too, and no variant of another', async () => {
    // Prepare
    const url = `https://example.com/variants-${randomUUID()}`;
    const entries = [key(url), { ...key(url), variant: 'c'.repeat(32) }, { ...key(url, 'mobile', 'dark'), variant: 'd'.repeat(32) }];
    const other = { ...key(`https://example.com/other-${randomUUID()}`), variant: 'c'.repeat(32) };
    for (const k of [...entries, other]) await cache.put(k, { png: png(k.url), strategy: 'local-chromium' }, 60);

    // Act
    const response = await purge({ url });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ purged: 3, url });
    for (const k of entries) {
      expect(await cache.get(k)).toBeUndefined();
      expect(await objectExists(k)).toBe(false);
    }
    expect(await cache.get(other)).toBeDefined();
  });

  it('purges the whole cache with {"all": true}', async () => {
    // Prepare
    const entries = [key(`https://example.com/${randomUUID()}`), key(`https://example.org/${randomUUID()}`, 'mobile')];
    for (const k of entries) await cache.put(k, { png: png(k.url), strategy: 'local-chromium' }, 60);

    // Act
    const response = await purge({ all: true });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.purged).toBeGreaterThanOrEqual(entries.length);
    for (const k of entries) {
      expect(await cache.get(k)).toBeUndefined();
      expect(await objectExists(k)).toBe(false);
    }
    expect((await purge({ all: true })).body).toEqual({ purged: 0 });
  });

  it.each([
    ['neither url nor all', {}, 'invalid_request'],
    ['both url and all', { url: 'https://example.com/', all: true }, 'invalid_request'],
    ['all: false', { all: false }, 'unsupported_value'],
    ['a malformed url', { url: 'nope' }, 'invalid_url'],
    ['an unknown field', { everything: true }, 'invalid_request'],
  ])('answers %s with 400', async (_case, body, code) => {
    // Act
    const response = await purge(body);

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope(400, code));
  });

  it('is left out of /openapi.json, the llms files and the guide', async () => {
    // Act
    const documents = await Promise.all(
      ['/openapi.json', '/llms.txt', '/llms-full.txt', '/docs'].map((path) => call(runtime.url, path, { headers: { accept: 'text/markdown' } })),
    );

    // Assess
    for (const document of documents) {
      const text = typeof document.body === 'string' ? document.body : JSON.stringify(document.body);
      expect(document.status).toBe(200);
      expect(text).toContain('/api/screenshot');
      expect(text).not.toContain('/internal/cache/purge');
      expect(text).not.toMatch(/purgeCache|X-Easel-Internal-Secret/i);
    }
  });
});

describe('capture cache with an Express One Zone bucket for small PNGs', () => {
  // The embedded S3 stands in for the directory bucket: the split is Easel's, the session auth the SDK's.
  const MAX_BYTES = 64;
  let express: string;
  let split: CaptureCache;
  const existsIn = (bucket: string, k: CaptureKey) =>
    aws.s3.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(k) })).then(
      () => true,
      () => false,
    );
  const where = async (k: CaptureKey) => ({ standard: await existsIn(cfg.buckets.cache, k), express: await existsIn(express, k) });

  beforeAll(async () => {
    express = `easel-cache-express-${randomUUID().slice(0, 8)}`;
    await aws.s3.send(new CreateBucketCommand({ Bucket: express }));
    const { s3DynamoCaptureCache } = await import('#shared/store/capture-cache.ts');
    split = s3DynamoCaptureCache({
      dynamo: aws.dynamo,
      s3: aws.s3,
      table: cfg.tables.cache,
      bucket: cfg.buckets.cache,
      express: { bucket: express, maxBytes: MAX_BYTES },
    });
  });

  it('keeps a PNG under the size in the directory bucket and a larger one in the cache bucket, and reads each from its place', async () => {
    // Prepare
    const small = key(`https://example.com/${randomUUID()}`);
    const large = key(`https://example.com/${randomUUID()}`);
    const bytes = { small: png('s'), large: png('l'.repeat(MAX_BYTES)) };

    // Act
    await split.put(small, { png: bytes.small, strategy: 'local-chromium' }, 60);
    await split.put(large, { png: bytes.large, strategy: 'local-chromium' }, 60);

    // Assess
    expect(await where(small)).toEqual({ standard: false, express: true });
    expect(await where(large)).toEqual({ standard: true, express: false });
    expect(await split.get(small)).toEqual({ png: new Uint8Array(bytes.small), strategy: 'local-chromium', capturedAt: expect.any(Number) });
    expect(await split.get(large)).toEqual({ png: new Uint8Array(bytes.large), strategy: 'local-chromium', capturedAt: expect.any(Number) });
    // A container without the directory bucket cannot reach the small one: a miss, not an error.
    expect(await cache.get(small)).toBeUndefined();
    expect(await cache.get(large)).toBeDefined();
  });

  it('reads a refresh that outgrew the size from the cache bucket, and a purge deletes the key from both buckets', async () => {
    // Prepare: captured small, then again larger; the small object stays until it expires.
    const k = key(`https://example.com/${randomUUID()}`);
    await split.put(k, { png: png('s'), strategy: 'local-chromium' }, 60);
    await split.put(k, { png: png('l'.repeat(MAX_BYTES)), strategy: 'local-chromium' }, 60);
    const refreshed = await split.get(k);

    // Act
    const purged = await split.purgeUrl(k.url);

    // Assess
    expect(refreshed?.png).toEqual(new Uint8Array(png('l'.repeat(MAX_BYTES))));
    expect(purged).toBe(1);
    expect(await where(k)).toEqual({ standard: false, express: false });
  });
});
