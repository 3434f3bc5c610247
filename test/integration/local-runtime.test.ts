import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { expectedEnvelope, waitFor } from '../support/expectations.ts';

let runtime: TestRuntime;
let aws: typeof import('#shared/wiring/dynamo.ts') & typeof import('#shared/wiring/s3.ts') & typeof import('#shared/wiring/sqs.ts');
let cfg: import('#shared/config.ts').Config;

beforeAll(async () => {
  runtime = await startTestRuntime();
  // The production clients, configured by the runtime's environment exactly as a handler's are.
  aws = { ...(await import('#shared/wiring/dynamo.ts')), ...(await import('#shared/wiring/s3.ts')), ...(await import('#shared/wiring/sqs.ts')) };
  cfg = (await import('#shared/config.ts')).config();
});

afterAll(async () => {
  await runtime?.dispose();
});

describe('local runtime backends', () => {
  it.each(['workspace', 'cache', 'rate'] as const)('reads back an item written to the %s table', async (table) => {
    // Prepare
    const key = { pk: `TEST#${randomUUID()}`, ...(table === 'workspace' ? { sk: 'ITEM' } : {}) };
    await aws.dynamo.send(new PutCommand({ TableName: cfg.tables[table], Item: { ...key, value: 42 } }));
    // Act
    const { Item } = await aws.dynamo.send(new GetCommand({ TableName: cfg.tables[table], Key: key }));
    // Assess
    expect(Item).toEqual({ ...key, value: 42 });
  });

  it.each(['assets', 'cache'] as const)('reads back an object written to the %s bucket', async (bucket) => {
    const key = `test/${randomUUID()}.bin`;
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    await aws.s3.send(new PutObjectCommand({ Bucket: cfg.buckets[bucket], Key: key, Body: bytes, ContentType: 'application/octet-stream' }));
    const object = await aws.s3.send(new GetObjectCommand({ Bucket: cfg.buckets[bucket], Key: key }));
    expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(bytes);
  });

  it('delivers a deletion message to the worker, which deletes the object and marks the asset deleted', async () => {
    // Prepare: a ready asset with its object in the assets bucket
    const workspaceId = `ws-${randomUUID()}`;
    const assetId = randomUUID();
    const objectKey = `${workspaceId}/${assetId}`;
    const key = { pk: `WS#${workspaceId}`, sk: `ASSET#${assetId}` };
    await aws.s3.send(new PutObjectCommand({ Bucket: cfg.buckets.assets, Key: objectKey, Body: 'png bytes' }));
    await aws.dynamo.send(new PutCommand({ TableName: cfg.tables.workspace, Item: { ...key, assetId, status: 'deleting', objectKey } }));
    // Act
    await aws.sqs.send(new SendMessageCommand({ QueueUrl: cfg.queues.deletion, MessageBody: JSON.stringify({ workspaceId, assetId }) }));
    // Assess
    const item = await waitFor(async () => {
      const { Item } = await aws.dynamo.send(new GetCommand({ TableName: cfg.tables.workspace, Key: key }));
      return Item?.status === 'deleted' ? Item : undefined;
    });
    expect(item.deletedAt).toEqual(expect.any(String));
    await expect(aws.s3.send(new HeadObjectCommand({ Bucket: cfg.buckets.assets, Key: objectKey }))).rejects.toMatchObject({
      name: 'NotFound',
    });
  });

  it('gives the deletion queue a redrive policy to its dead-letter queue', async () => {
    // The queue's own settings, read with the SDK (the functions only send).
    const admin = new SQSClient({ region: cfg.region, endpoint: cfg.endpoints.sqs, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    const { Attributes } = await admin.send(
      new GetQueueAttributesCommand({ QueueUrl: cfg.queues.deletion, AttributeNames: ['RedrivePolicy', 'VisibilityTimeout'] }),
    );
    expect(JSON.parse(Attributes!.RedrivePolicy!)).toMatchObject({ maxReceiveCount: 5, deadLetterTargetArn: expect.stringContaining('easel-deletion-dlq') });
    expect(Attributes!.VisibilityTimeout).toBe('180');
  });

  it('applies conditional writes and atomic counters as DynamoDB does', async () => {
    const key = { pk: `RATE#${randomUUID()}` };
    const bump = () =>
      aws.dynamo.send(
        new UpdateCommand({
          TableName: cfg.tables.rate,
          Key: key,
          UpdateExpression: 'ADD hits :one',
          ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
          ExpressionAttributeValues: { ':one': 1, ':limit': 20 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
    const results = await Promise.allSettled(Array.from({ length: 30 }, bump));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(20);
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(10);
  });
});

describe('local runtime HTTP', () => {
  const envelope = (status: number, code: string) => expectedEnvelope(runtime.url, status, code);

  it('answers an unknown path with the 404 envelope and the baseline headers', async () => {
    const response = await fetch(`${runtime.url}/nope`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
    // Plain http locally: HSTS would be meaningless and is not sent.
    expect(response.headers.get('strict-transport-security')).toBeNull();
    const body = (await response.json()) as { error: string; message: string };
    expect(body).toEqual(envelope(404, 'not_found'));
    expect(body.error).toBe(body.message);
  });

  it('answers a known path with another method with 405 and an Allow header from the route table', async () => {
    const response = await fetch(`${runtime.url}/openapi.json`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toEqual(envelope(405, 'method_not_allowed'));
  });

  it.each(['/llms.txt', '/openapi.json', '/docs', '/'])('answers HEAD %s like GET without a body, with the length GET sends', async (path) => {
    // Act
    const get = await fetch(`${runtime.url}${path}`);
    const getBody = Buffer.from(await get.arrayBuffer());
    const head = await fetch(`${runtime.url}${path}`, { method: 'HEAD' });

    // Assess
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(getBody.length));
    expect(Buffer.from(await head.arrayBuffer())).toHaveLength(0);
  });

  it('answers HEAD on a path that only takes POST with 405 and the Allow header', async () => {
    const response = await fetch(`${runtime.url}/api/export`, { method: 'HEAD' });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.text()).toBe('');
  });

  it('answers a CORS preflight on a public route for any origin, without credentials', async () => {
    const response = await fetch(`${runtime.url}/openapi.json`, {
      method: 'OPTIONS',
      headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('refuses a body over the Lambda payload limit with the 413 envelope', async () => {
    const response = await fetch(`${runtime.url}/openapi.json`, { method: 'POST', body: Buffer.alloc(6 * 1024 * 1024 + 1) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ ...envelope(413, 'invalid_request'), limit: 6 * 1024 * 1024 });
  });

  it('grants nothing for an Authorization header', async () => {
    const response = await fetch(`${runtime.url}/nope`, { headers: { authorization: 'Bearer anything' } });
    expect(response.status).toBe(404);
  });
});
