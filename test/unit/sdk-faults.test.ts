/**
 * Failures a real backend cannot produce on demand — throttling, the clients' own time-outs, a
 * service's 5xx — on every data-access call, for DynamoDB, S3 and SQS: each is translated at the
 * data-access layer into 503 `upstream_unavailable`, and reaches a client as that envelope.
 */
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { s3Client } from '#shared/aws/s3.ts';
import { SDK_LIMITS } from '#shared/config.ts';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import { generateApiKey } from '#shared/identity/credentials.ts';
import { completeUpload, createDownloadUrl, createUpload, requestDeletion } from '#shared/services/assets.ts';
import type { AssetDeps } from '#shared/services/assets.ts';
import { createRelease, listReleases } from '#shared/services/releases.ts';
import { createSourceApp } from '#shared/services/source-apps.ts';
import { s3DynamoCaptureCache } from '#shared/store/capture-cache.ts';
import { AssetObjectStore } from '#shared/store/asset-objects.ts';
import { AssetUrlSigner } from '#shared/store/asset-urls.ts';
import { AssetStore } from '#shared/store/assets.ts';
import { DeletionQueue } from '#shared/store/deletion-queue.ts';
import { identityStores } from '#shared/store/identity-stores.ts';
import { keys } from '#shared/store/keys.ts';
import { dynamoCounterStore } from '#shared/store/rate-counters.ts';
import { ReleaseStore } from '#shared/store/releases.ts';
import { SourceAppStore } from '#shared/store/source-apps.ts';
import { MOCK_ASSET_ID, mockAssetItem } from '../support/asset-items.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { dynamoError, mockDynamo, mockS3, mockSqs, s3Error, stubbedDynamo, stubbedS3, stubbedSqs } from '../support/mock-dynamo.ts';

const ddb = mockDynamo();
const storage = mockS3();
const queue = mockSqs();
afterAll(() => {
  for (const mock of [ddb, storage, queue]) mock.restore();
});

const dynamo = stubbedDynamo();
const s3 = stubbedS3();
const sqs = stubbedSqs();
const assets: AssetDeps = {
  assets: new AssetStore({ dynamo, table: 'workspace' }),
  objects: new AssetObjectStore({ s3, bucket: 'assets' }),
  urls: new AssetUrlSigner({
    s3: s3Client({ region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, ...SDK_LIMITS }),
    bucket: 'assets',
  }),
  deletionQueue: new DeletionQueue({ sqs, queueUrl: 'https://sqs.test/deletion' }),
};
const identity = identityStores({ dynamo, table: 'workspace' });
const cache = s3DynamoCaptureCache({ dynamo, s3, table: 'cache', bucket: 'cache' });
const capture = { url: 'https://example.com/', deviceType: 'desktop', colorScheme: 'light' } as const;
const ASSET_ID = MOCK_ASSET_ID;

// What Node's socket gives.
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4567'), { code: 'ECONNREFUSED' });
const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

type Fault = [string, () => Error];
/** What the SDK's HTTP handler (@smithy/node-http-handler) throws when a time limit passes, and a socket's failures. */
const handlerFaults = (): Fault[] => [
  [
    'the request time-out',
    () =>
      Object.assign(new Error('@smithy/node-http-handler - [ERROR] a request has exceeded the configured 2000 ms requestTimeout.'), {
        name: 'TimeoutError',
        code: 'ETIMEDOUT',
      }),
  ],
  [
    'the connection time-out',
    () =>
      Object.assign(
        new Error('@smithy/node-http-handler - the request socket did not establish a connection with the server within the configured timeout of 1000 ms.'),
        { name: 'TimeoutError' },
      ),
  ],
  [
    'the socket time-out',
    () =>
      Object.assign(new Error('@smithy/node-http-handler - the request socket timed out after 5000 ms of inactivity (configured by client requestHandler).'), {
        name: 'TimeoutError',
      }),
  ],
  ['a refused connection', refused],
  ['a dropped connection', reset],
];
const FAULTS: Record<'dynamodb' | 's3' | 'sqs', Fault[]> = {
  dynamodb: [
    // As the SDK throws them after its last attempt.
    ['ThrottlingException', () => dynamoError('ThrottlingException', 400, 'Rate of requests exceeds the allowed throughput.')],
    ['ProvisionedThroughputExceededException', () => dynamoError('ProvisionedThroughputExceededException', 400, 'Throughput exceeded')],
    ['RequestLimitExceeded', () => dynamoError('RequestLimitExceeded', 400, 'Throughput exceeds the account limit')],
    ['a 500 InternalServerError', () => dynamoError('InternalServerError', 500, 'Internal error')],
    ['an unmodelled 503', () => dynamoError('UnknownError', 503, 'dynamodb answered 503')],
    ...handlerFaults(),
  ],
  s3: [
    // As the SDK throws them after its last attempt.
    ['503 SlowDown', () => s3Error('SlowDown', 503, 'Please reduce your request rate.')],
    ['a 500 InternalError', () => s3Error('InternalError', 500, 'We encountered an internal error. Please try again.')],
    [
      'a 400 RequestTimeout (idle upload)',
      () => s3Error('RequestTimeout', 400, 'Your socket connection to the server was not read from or written to within the timeout period.'),
    ],
    ['a 503 without an error code', () => s3Error('Unknown', 503, 'S3 answered 503 without an error code')],
    ...handlerFaults(),
  ],
  sqs: [
    ['RequestThrottled', () => dynamoError('RequestThrottled', 400, 'Request is throttled.')],
    ['KmsThrottled', () => dynamoError('KmsThrottled', 400, 'KMS throttled')],
    ['OverLimit', () => dynamoError('OverLimit', 403, 'Too many messages in flight')],
    ['a 500 from the queue', () => dynamoError('InternalError', 500, '')],
    ...handlerFaults(),
  ],
};

function storedAsset(status: string) {
  ddb.on(GetCommand, { Key: keys.asset('ws_a', ASSET_ID) }).resolves({ Item: mockAssetItem({ status }) });
}

const releaseDeps = { releases: new ReleaseStore({ dynamo, table: 'workspace' }), productSurfaceExists: async () => true };
const asset = { workspaceId: 'ws_a', assetId: ASSET_ID };

/**
 * Each data-access call: `arrange` makes the backend under test fail with the fault (and puts
 * whatever the call reads before it in the other mocks), `act` makes the call.
 */
interface Call {
  name: string;
  arrange(fault: Error): void;
  act(): Promise<unknown>;
}

const CALLS: Record<'dynamodb' | 's3' | 'sqs', Call[]> = {
  dynamodb: [
    { name: 'verifying an API key', arrange: (fault) => ddb.on(GetCommand).rejects(fault), act: () => identity.getApiKey(generateApiKey()) },
    { name: 'reading a session', arrange: (fault) => ddb.on(GetCommand).rejects(fault), act: () => identity.getSession('ab'.repeat(32)) },
    {
      name: 'reading a member and organization',
      arrange: (fault) => ddb.on(BatchGetCommand).rejects(fault),
      act: () => identity.getMemberContext('org_a', 'usr_a'),
    },
    {
      name: 'listing releases',
      arrange: (fault) => ddb.on(QueryCommand).rejects(fault),
      act: () => listReleases(releaseDeps, { workspaceId: 'ws_a', limit: 5 }),
    },
    {
      name: 'creating a release with an Idempotency-Key',
      arrange: (fault) => ddb.on(PutCommand).rejects(fault),
      act: () => createRelease(releaseDeps, { workspaceId: 'ws_a', body: { title: 't', benefitStatement: 'b' }, idempotencyKey: 'k' }),
    },
    {
      name: 'creating a source app',
      arrange: (fault) => ddb.on(PutCommand).rejects(fault),
      act: () =>
        createSourceApp(
          { sourceApps: new SourceAppStore({ dynamo, table: 'workspace' }) },
          { workspaceId: 'ws_a', organizationId: 'org_a', body: { name: 'n', allowedHosts: ['https://a.test'], provider: 'generic' } },
        ),
    },
    {
      name: 'counting a rate limit or quota',
      arrange: (fault) => ddb.on(UpdateCommand).rejects(fault),
      act: () => dynamoCounterStore(dynamo, 'rate').incrementBelow('k#0', 20, 1),
    },
    {
      name: 'creating an upload',
      arrange: (fault) => ddb.on(PutCommand).rejects(fault),
      act: () => createUpload(assets, { workspaceId: 'ws_a', body: { bytes: 4, contentType: 'image/png', fileName: 'a.png', classification: 'input' } }),
    },
    { name: 'reading an asset to complete it', arrange: (fault) => ddb.on(GetCommand).rejects(fault), act: () => completeUpload(assets, asset) },
    { name: 'reading an asset to sign a download', arrange: (fault) => ddb.on(GetCommand).rejects(fault), act: () => createDownloadUrl(assets, asset) },
    {
      name: 'marking an asset for deletion',
      arrange: (fault) => {
        storedAsset('ready');
        ddb.on(UpdateCommand).rejects(fault);
      },
      act: () => requestDeletion(assets, asset),
    },
    { name: 'reading the capture cache', arrange: (fault) => ddb.on(GetCommand).rejects(fault), act: () => cache.get(capture) },
    {
      name: 'purging the capture cache',
      arrange: (fault) => {
        storage.on(DeleteObjectsCommand).resolves({});
        ddb.on(DeleteCommand).rejects(fault);
      },
      act: () => cache.purgeUrl(capture.url),
    },
    { name: 'finding the options variants of a purged URL', arrange: (fault) => ddb.on(ScanCommand).rejects(fault), act: () => cache.purgeUrl(capture.url) },
  ],
  s3: [
    {
      name: 'checking an upload',
      arrange: (fault) => {
        storedAsset('pending');
        storage.on(HeadObjectCommand).rejects(fault);
      },
      act: () => completeUpload(assets, asset),
    },
    {
      name: 'hashing an upload',
      arrange: (fault) => {
        storedAsset('pending');
        storage.on(HeadObjectCommand).resolves({ ContentLength: 4, ContentType: 'image/png' });
        storage.on(GetObjectCommand).rejects(fault);
      },
      act: () => completeUpload(assets, asset),
    },
    {
      name: 'reading a cached capture',
      arrange: (fault) => {
        ddb
          .on(GetCommand)
          .resolves({ Item: { pk: 'x', url: capture.url, objectKey: 'captures/x.png', strategy: 'local-chromium', capturedAt: 1, expiresAt: 4_000_000_000 } });
        storage.on(GetObjectCommand).rejects(fault);
      },
      act: () => cache.get(capture),
    },
    {
      name: 'deleting purged captures',
      arrange: (fault) => {
        storage.on(DeleteObjectsCommand).rejects(fault);
      },
      act: () => cache.purgeUrl(capture.url),
    },
  ],
  sqs: [
    {
      name: 'queueing a deletion',
      arrange: (fault) => {
        storedAsset('ready');
        ddb.on(UpdateCommand).resolves({});
        queue.on(SendMessageCommand).rejects(fault);
      },
      act: () => requestDeletion(assets, asset),
    },
  ],
};

beforeEach(() => {
  for (const mock of [ddb, storage, queue]) mock.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(ScanCommand).resolves({});
});

const CASES = (Object.keys(CALLS) as (keyof typeof CALLS)[]).flatMap((backend) =>
  CALLS[backend].flatMap((call) => FAULTS[backend].map(([fault, make]) => [backend, call.name, fault, call, make] as const)),
);

describe('data access under SDK faults', () => {
  it.each(CASES)('answers 503 upstream_unavailable when %s fails %s with %s', async (_backend, _name, _fault, call, make) => {
    // Prepare
    const fault = make();
    call.arrange(fault);

    // Act
    const outcome = await call.act().then(
      () => undefined,
      (error: unknown) => error,
    );

    // Assess
    expect(outcome).toBeInstanceOf(UpstreamUnavailableError);
    expect(outcome).toMatchObject({ status: 503, code: 'upstream_unavailable', cause: fault });
  });

  it('puts the asset back to ready when the deletion cannot be queued, so it is never stranded', async () => {
    // Prepare
    storedAsset('ready');
    ddb.on(UpdateCommand).resolves({});
    queue.on(SendMessageCommand).rejects(dynamoError('RequestThrottled', 400, 'throttled'));

    // Act
    await expect(requestDeletion(assets, { workspaceId: 'ws_a', assetId: ASSET_ID })).rejects.toBeInstanceOf(UpstreamUnavailableError);

    // Assess
    const updates = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(updates).toHaveLength(2);
    expect(updates[1]).toMatchObject({
      Key: keys.asset('ws_a', ASSET_ID),
      UpdateExpression: 'SET #status = :ready REMOVE deletionRequestedAt',
      ConditionExpression: '#status = :deleting',
    });
  });
});

describe('purging captures when S3 deletes only some objects', () => {
  // DeleteObjects answers 200 and lists, per key, what it could not delete.
  const failing = (code: string) => (input: { Delete: { Objects: { Key: string }[] } }) => ({
    Errors: input.Delete.Objects.slice(0, 1).map(({ Key }) => ({ Key, Code: code, Message: `${code} for ${Key}` })),
  });

  it('sends the keys S3 could not delete again, and answers once they are gone', async () => {
    // Prepare
    storage.on(DeleteObjectsCommand).callsFakeOnce(failing('InternalError')).resolves({});
    ddb.on(DeleteCommand).resolves({ Attributes: { pk: 'x' } });

    // Act
    const purged = await cache.purgeUrl(capture.url);

    // Assess
    const sent = storage.commandCalls(DeleteObjectsCommand).map((call) => call.args[0].input.Delete!.Objects!.map(({ Key }) => Key));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toHaveLength(4);
    expect(sent[1]).toEqual([sent[0]![0]]);
    expect(purged).toBe(4);
  });

  it('fails with 503 when S3 keeps failing a key with a transient error, and leaves the items for the retry', async () => {
    // Prepare
    storage.on(DeleteObjectsCommand).callsFake(failing('SlowDown'));

    // Act
    const outcome = await cache.purgeUrl(capture.url).catch((error: unknown) => error);

    // Assess
    expect(outcome).toBeInstanceOf(UpstreamUnavailableError);
    expect(outcome).toMatchObject({
      status: 503,
      code: 'upstream_unavailable',
      hint: expect.stringContaining('1 cached capture object could not be deleted (SlowDown'),
    });
    expect(storage.commandCalls(DeleteObjectsCommand)).toHaveLength(3);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('fails with a plain error, a 500 to look into, when S3 refuses a key for good', async () => {
    // Prepare
    storage.on(DeleteObjectsCommand).callsFake(failing('AccessDenied'));

    // Act
    const outcome = await cache.purgeUrl(capture.url).catch((error: unknown) => error);

    // Assess
    expect(outcome).not.toBeInstanceOf(UpstreamUnavailableError);
    expect(outcome).toMatchObject({ message: expect.stringContaining('AccessDenied') });
  });
});

describe('route handlers under SDK faults', () => {
  it.each([
    ['GET /api/v1/releases', '#functions/releases/list-releases.ts', { 'x-api-key': generateApiKey() }],
    ['GET /api/v1/me', '#functions/shell/get-me.ts', { cookie: `easel.session_token=easel_st_${'1'.repeat(40)}` }],
  ])('answers %s with the 503 envelope when DynamoDB throttles', async (_route, module, headers) => {
    // Prepare
    ddb.on(GetCommand).rejects(dynamoError('ThrottlingException', 400, 'Rate exceeded'));
    const { handler } = (await import(module)) as { handler: (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }> };

    // Act
    const result = await handler(apiEvent({ path: '/', headers }), lambdaContext());

    // Assess
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body)).toEqual({
      ...expectedEnvelope('http://easel.test', 503, 'upstream_unavailable'),
      hint: 'The workspace table is temporarily unavailable; retry with back-off.',
    });
  });
});
