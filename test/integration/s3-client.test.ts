/**
 * Easel's S3 client (shared/aws/s3.ts over aws/transport.ts) held to the SDK's S3 client it
 * replaced: against the embedded S3 (s3rver), what it writes the SDK reads back identically and
 * the other way round, and every operation the stores use behaves alike; against a local server
 * that answers errors on purpose, both clients get the same answers and must retry, give up and
 * name their errors alike, and guard() must turn the outages into 503 as it did for the SDK's
 * (time-outs and broken connections, which aws/transport.ts handles for every client:
 * aws-transport.test.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Sdk from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CopyObjectCommand,
  copySource,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '#shared/aws/s3.ts';
import type { AwsClientSettings } from '#shared/aws/transport.ts';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import { guard } from '#shared/store/sdk-calls.ts';
import { startS3, type Backend } from '#infra/local/backends.ts';
import { SDK_LIMITS } from '#shared/wiring/sdk-limits.ts';
import { LOCAL_CREDENTIALS, localSettings } from '../support/aws-settings.ts';
import { useFailingServer, type Answer } from '../support/failing-server.ts';

const BUCKET = 'client-test';
const credentials = LOCAL_CREDENTIALS;

function ours(settings: Partial<AwsClientSettings> & { endpoint: string }): S3Client {
  return new S3Client(localSettings(settings));
}

/** The SDK's client as wiring/s3.ts configured it before Easel's replaced it. */
function sdkClient(endpoint: string, limits: Partial<typeof SDK_LIMITS> = {}): Sdk.S3Client {
  const { maxAttempts, connectionTimeoutMs, requestTimeoutMs, socketTimeoutMs } = { ...SDK_LIMITS, ...limits };
  return new Sdk.S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts,
    requestHandler: { connectionTimeout: connectionTimeoutMs, requestTimeout: requestTimeoutMs, throwOnRequestTimeout: true, socketTimeout: socketTimeoutMs },
  });
}

/** Every byte value, and more than one chunk's worth of them. */
const BYTES = Buffer.concat(Array.from({ length: 300 }, () => Buffer.from(Array.from({ length: 256 }, (_, n) => n))));

/**
 * Keys as the stores write them and harder ones. Not among them: `+`, `=` and the like in a copy
 * source, which s3rver reads with decodeURI (it leaves %2B encoded, where S3 decodes it), and
 * `//` or line breaks, which s3rver's file store cannot hold; aws-s3.test.ts holds those
 * requests to the SDK's.
 */
const KEYS = ['uploads/ws_1/0193a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b', 'objects/ws 1/assets/with  spaces', 'objects/ws/assets/日本語 — Café 🎨.png', "objects/a+b=c/x+y==!'()*~._-"];

describe('the embedded S3', () => {
  let dataDir: string;
  let backend: Backend;
  let client: S3Client;
  let sdk: Sdk.S3Client;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'easel-s3-client-'));
    backend = await startS3(dataDir, 0);
    sdk = sdkClient(backend.endpoint);
    await sdk.send(new Sdk.CreateBucketCommand({ Bucket: BUCKET }));
    client = ours({ endpoint: backend.endpoint });
  });

  afterAll(async () => {
    client?.destroy();
    sdk?.destroy();
    await backend?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each(KEYS)('writes objects the SDK reads back identically: %j', async (key) => {
    // Act
    const put = await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: BYTES, ContentType: 'image/png' }));
    const read = await sdk.send(new Sdk.GetObjectCommand({ Bucket: BUCKET, Key: key }));

    // Assess
    expect(Buffer.from(await read.Body!.transformToByteArray())).toEqual(BYTES);
    expect(read).toMatchObject({ ContentType: 'image/png', ContentLength: BYTES.length, ETag: put.ETag });
    expect(put.$metadata.httpStatusCode).toBe(200);
  });

  it.each(KEYS)('reads objects the SDK wrote identically: %j', async (key) => {
    // Prepare
    await sdk.send(new Sdk.PutObjectCommand({ Bucket: BUCKET, Key: `sdk/${key}`, Body: BYTES, ContentType: 'image/webp' }));

    // Act
    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `sdk/${key}` }));
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `sdk/${key}` }));
    const theirs = await sdk.send(new Sdk.HeadObjectCommand({ Bucket: BUCKET, Key: `sdk/${key}` }));

    // Assess
    expect(got.Body).toEqual(BYTES);
    const fields = { ContentLength: theirs.ContentLength, ContentType: theirs.ContentType, ETag: theirs.ETag, LastModified: theirs.LastModified, Metadata: theirs.Metadata };
    expect(head).toEqual({ ...fields, $metadata: expect.objectContaining({ httpStatusCode: 200, attempts: 1 }) });
    expect(got).toMatchObject(fields);
  });

  it.each(KEYS.slice(0, 3))('copies an object to a new key with a new content type, as completing an upload does: %j', async (key) => {
    // Prepare
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `uploads/${key}`, Body: BYTES, ContentType: 'application/octet-stream' }));

    // Act
    const copied = await client.send(new CopyObjectCommand({ Bucket: BUCKET, Key: `copies/${key}`, CopySource: copySource(BUCKET, `uploads/${key}`), ContentType: 'image/png', MetadataDirective: 'REPLACE' }));
    const head = await sdk.send(new Sdk.HeadObjectCommand({ Bucket: BUCKET, Key: `copies/${key}` }));
    const read = await sdk.send(new Sdk.GetObjectCommand({ Bucket: BUCKET, Key: `copies/${key}` }));

    // Assess
    expect(copied.CopyObjectResult?.ETag).toBe(head.ETag);
    expect(copied.CopyObjectResult?.LastModified).toBeInstanceOf(Date);
    expect(head.ContentType).toBe('image/png');
    expect(Buffer.from(await read.Body!.transformToByteArray())).toEqual(BYTES);
  });

  it('deletes one object, deletes many in one batch, and succeeds for keys that are not there', async () => {
    // Prepare
    const keys = KEYS.map((key) => `batch/${key}`);
    for (const key of keys) await sdk.send(new Sdk.PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'x' }));

    // Act
    const one = await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: keys[0]! }));
    const again = await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: keys[0]! }));
    const many = await client.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: [...keys.slice(1), 'batch/never'].map((Key) => ({ Key })), Quiet: true } }));
    const left = await sdk.send(new Sdk.ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'batch/' }));

    // Assess
    expect([one.$metadata.httpStatusCode, again.$metadata.httpStatusCode, many.$metadata.httpStatusCode]).toEqual([204, 204, 200]);
    expect(many.Errors).toBeUndefined();
    expect(left.KeyCount).toBe(0);
  });

  it.each([
    ['a GET of a missing key', NoSuchKey, new GetObjectCommand({ Bucket: BUCKET, Key: 'missing' }), new Sdk.GetObjectCommand({ Bucket: BUCKET, Key: 'missing' })],
    ['a HEAD of a missing key (no body to name it)', NotFound, new HeadObjectCommand({ Bucket: BUCKET, Key: 'missing' }), new Sdk.HeadObjectCommand({ Bucket: BUCKET, Key: 'missing' })],
    [
      'a copy from a missing key',
      NoSuchKey,
      new CopyObjectCommand({ Bucket: BUCKET, Key: 'to', CopySource: copySource(BUCKET, 'missing') }),
      new Sdk.CopyObjectCommand({ Bucket: BUCKET, Key: 'to', CopySource: copySource(BUCKET, 'missing') }),
    ],
  ])('names %s as the SDK does, without retrying it', async (_case, ErrorClass, mine, theirs) => {
    // Act
    const error = await client.send(mine).catch((caught: unknown) => caught);
    const expected = (await sdk.send(theirs as never).catch((caught: unknown) => caught)) as S3ServiceException;

    // Assess
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ name: expected.name, $fault: expected.$fault, $metadata: { httpStatusCode: expected.$metadata.httpStatusCode, attempts: 1 } });
    expect(expected.$metadata.attempts).toBe(1);
  });
});

describe('an S3 that fails', () => {
  const server = useFailingServer();

  const start = (...sequence: Answer[]) => server.script(...sequence);

  const xmlError = (status: number, code: string, message: string): Answer => (_request, response) =>
    response
      .writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': 'REQ123' })
      .end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>REQ123</RequestId><HostId>host</HostId></Error>`);
  const slowDown = xmlError(503, 'SlowDown', 'Please reduce your request rate.');
  const object: Answer = (_request, response) => response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(BYTES.length), etag: '"abc"' }).end(BYTES);
  const get = () => new GetObjectCommand({ Bucket: BUCKET, Key: 'k' });
  const copy = () => new CopyObjectCommand({ Bucket: BUCKET, Key: 'k', CopySource: copySource(BUCKET, 'src'), ContentType: 'image/png', MetadataDirective: 'REPLACE' });

  it('retries SlowDown and succeeds within its attempts, signing each attempt', async () => {
    // Prepare
    start(slowDown, slowDown, object);
    const client = ours({ endpoint: server.endpoint });

    // Act
    const got = await client.send(get());

    // Assess
    expect(got.Body).toEqual(BYTES);
    expect(got.$metadata).toMatchObject({ httpStatusCode: 200, attempts: 3 });
    expect(got.$metadata.totalRetryDelay).toBeGreaterThanOrEqual(0);
    expect(server.seen).toHaveLength(3);
    for (const request of server.seen) {
      expect(request.url).toBe(`/${BUCKET}/k?x-id=GetObject`);
      expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=easel-local\/\d{8}\/us-east-1\/s3\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
    }
    client.destroy();
  });

  const CopyCommand = (): [CopyObjectCommand, Sdk.CopyObjectCommand] => [copy(), new Sdk.CopyObjectCommand({ ...copy().input })];
  const GetCommand = (): [GetObjectCommand, Sdk.GetObjectCommand] => [get(), new Sdk.GetObjectCommand(get().input)];
  const HeadCommand = (): [HeadObjectCommand, Sdk.HeadObjectCommand] => [new HeadObjectCommand(get().input), new Sdk.HeadObjectCommand(get().input)];

  it.each([
    ['503 SlowDown that does not stop', slowDown, GetCommand, { name: 'SlowDown', $fault: 'server', $retryable: { throttling: true } }],
    ['a 500 InternalError', xmlError(500, 'InternalError', 'We encountered an internal error. Please try again.'), GetCommand, { name: 'InternalError', $fault: 'server' }],
    ['a 503 page that is not XML', ((_request, response) => response.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>')) as Answer, GetCommand, { name: 'Unknown', $fault: 'server' }],
    ['a 502 without a body to a HEAD', ((_request, response) => response.writeHead(502).end()) as Answer, HeadCommand, { name: 'Unknown', $fault: 'server' }],
    ['a copy answered 200 with an <Error> body', xmlError(200, 'InternalError', 'copy failed'), CopyCommand, { name: 'InternalError', $fault: 'server' }],
    ['a copy answered 200 with an empty body', ((_request, response) => response.writeHead(200).end()) as Answer, CopyCommand, { name: 'InternalError', $fault: 'server' }],
  ])('gives up on %s after its attempts as the SDK does, and guard() turns it into 503', async (_case, answer, commands, shape) => {
    // Prepare
    start(answer);
    const client = ours({ endpoint: server.endpoint });
    const sdk = sdkClient(server.endpoint);
    const [mine, theirs] = commands();

    // Act
    const error = (await client.send(mine).catch((caught: unknown) => caught)) as S3ServiceException;
    const expected = (await sdk.send(theirs as never).catch((caught: unknown) => caught)) as S3ServiceException;
    const guarded = await guard('Asset storage', () => client.send(commands()[0])).catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(S3ServiceException);
    expect(error).toMatchObject(shape);
    expect({ name: error.name, httpStatusCode: error.$metadata.httpStatusCode, attempts: error.$metadata.attempts }).toEqual({
      name: expected.name,
      httpStatusCode: expected.$metadata.httpStatusCode,
      attempts: expected.$metadata.attempts,
    });
    expect(error.$metadata.attempts).toBe(3);
    expect(server.seen).toHaveLength(9);
    expect(guarded).toBeInstanceOf(UpstreamUnavailableError);
    client.destroy();
    sdk.destroy();
  });

  it.each([
    ['403 AccessDenied', xmlError(403, 'AccessDenied', 'Access Denied')],
    ['404 NoSuchBucket', xmlError(404, 'NoSuchBucket', 'The specified bucket does not exist')],
  ])('does not retry %s, an error of the request, and guard() passes it on', async (_case, answer) => {
    // Prepare
    start(answer);
    const client = ours({ endpoint: server.endpoint });
    const sdk = sdkClient(server.endpoint);

    // Act
    const error = (await client.send(get()).catch((caught: unknown) => caught)) as S3ServiceException;
    const expected = (await sdk.send(new Sdk.GetObjectCommand(get().input)).catch((caught: unknown) => caught)) as S3ServiceException;
    const guarded = await guard('Asset storage', () => client.send(get())).catch((caught: unknown) => caught);

    // Assess
    expect(error).toMatchObject({ name: expected.name, message: expected.message, $fault: 'client', $metadata: { httpStatusCode: expected.$metadata.httpStatusCode, requestId: 'REQ123', attempts: 1 } });
    expect(server.seen).toHaveLength(3);
    expect(guarded).not.toBeInstanceOf(UpstreamUnavailableError);
    expect(guarded).toMatchObject({ name: expected.name });
    client.destroy();
    sdk.destroy();
  });
});
