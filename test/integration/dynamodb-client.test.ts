/**
 * Easel's DynamoDB client (shared/aws/dynamodb.ts over aws/json-protocol.ts) held to the SDK it
 * replaced: against the embedded DynamoDB, what it writes the SDK's document client reads back
 * identically and the other way round, every operation the stores use behaves alike; against a
 * local server that answers errors on purpose, it retries and names them as the SDK does, so the
 * data-access layer turns outages into 503 the same way (time-outs and broken connections, which
 * aws/transport.ts handles for every client: aws-transport.test.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as Sdk from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BatchGetCommand,
  BatchWriteCommand,
  ConditionalCheckFailedException,
  DeleteCommand,
  DynamoClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '#shared/aws/dynamodb.ts';
import { AwsServiceError, type AwsClientSettings } from '#shared/aws/transport.ts';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import { TABLES } from '#shared/resources.ts';
import { guard } from '#shared/store/sdk-calls.ts';
import { startDynamo, type Backend } from '#infra/local/backends.ts';
import { ensureTable } from '#infra/local/provision.ts';
import { LOCAL_CREDENTIALS, localSettings } from '../support/aws-settings.ts';
import { useFailingServer, type Answer } from '../support/failing-server.ts';

const TABLE = 'client-test';
const credentials = LOCAL_CREDENTIALS;
let dataDir: string;
let backend: Backend;
let ours: DynamoClient;
let sdk: Sdk.DynamoDBDocumentClient;

function client(settings: Partial<AwsClientSettings> & { endpoint: string }): DynamoClient {
  return new DynamoClient(localSettings(settings));
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'easel-dynamo-client-'));
  backend = await startDynamo(dataDir, 0);
  const raw = new DynamoDBClient({ region: 'us-east-1', endpoint: backend.endpoint, credentials });
  await ensureTable(raw, TABLE, TABLES.workspace);
  sdk = Sdk.DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  ours = client({ endpoint: backend.endpoint });
});

afterAll(async () => {
  ours?.destroy();
  sdk?.destroy();
  await backend?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** An item with every kind of value the document client converts. */
const EVERY_KIND = {
  pk: 'KIND#1',
  sk: 'A',
  text: 'Café — 日本 🎨',
  empty: '',
  integer: 42,
  negative: -7,
  float: 3.141592653589793,
  tiny: 1e-7,
  safe: Number.MAX_SAFE_INTEGER,
  big: 12345678901234567890123n,
  yes: true,
  no: false,
  nothing: null,
  nested: { deeper: { list: [1, 'two', { three: 3 }, [4]], flag: false }, empty: {} },
  list: ['a', 1, null, true],
  emptyList: [],
  strings: new Set(['x', 'y']),
  numbers: new Set([1, 2.5, -3]),
  bytes: new Uint8Array([0, 1, 2, 254, 255]),
  byteSet: new Set([new Uint8Array([1]), new Uint8Array([2, 3])]),
};

describe('values, as the SDK document client converts them', () => {
  it('writes items the SDK reads back identically', async () => {
    // Act
    await ours.send(new PutCommand({ TableName: TABLE, Item: { ...EVERY_KIND, skipped: undefined, nested: { ...EVERY_KIND.nested, gone: undefined } } }));
    const read = await sdk.send(new Sdk.GetCommand({ TableName: TABLE, Key: { pk: 'KIND#1', sk: 'A' } }));

    // Assess
    expect(read.Item).toEqual(EVERY_KIND);
    expect(read.Item).not.toHaveProperty('skipped');
  });

  it('reads items the SDK wrote identically', async () => {
    // Prepare
    await sdk.send(new Sdk.PutCommand({ TableName: TABLE, Item: { ...EVERY_KIND, sk: 'B' } }));

    // Act
    const read = await ours.send(new GetCommand({ TableName: TABLE, Key: { pk: 'KIND#1', sk: 'B' }, ConsistentRead: true }));
    const theirs = await sdk.send(new Sdk.GetCommand({ TableName: TABLE, Key: { pk: 'KIND#1', sk: 'B' }, ConsistentRead: true }));

    // Assess
    expect(read.Item).toEqual(theirs.Item);
    expect(typeof read.Item!.big).toBe('bigint');
    expect(read.Item!.bytes).toBeInstanceOf(Uint8Array);
    expect(read.$metadata.httpStatusCode).toBe(200);
  });

  it('answers a missing item with no Item at all', async () => {
    const read = await ours.send(new GetCommand({ TableName: TABLE, Key: { pk: 'NONE', sk: 'NONE' } }));
    expect(read).not.toHaveProperty('Item');
  });

  it.each([
    ['NaN', Number.NaN, /Special numeric value NaN/],
    ['Infinity', Number.POSITIVE_INFINITY, /Special numeric value Infinity/],
    ['an unsafe integer', 2 ** 60, /safe integer range/],
    ['an empty set', new Set(), /non-empty set/],
    ['a Date (a class instance)', new Date(0), /Unsupported type/],
  ])('refuses %s before sending, as the SDK does', async (_case, value, message) => {
    await expect(ours.send(new PutCommand({ TableName: TABLE, Item: { pk: 'BAD', sk: 'A', value } }))).rejects.toThrow(message);
    await expect(sdk.send(new Sdk.PutCommand({ TableName: TABLE, Item: { pk: 'BAD', sk: 'A', value } }))).rejects.toThrow();
  });

  it('refuses a set of mixed kinds, which the SDK would send as a string set holding a number', async () => {
    await expect(ours.send(new PutCommand({ TableName: TABLE, Item: { pk: 'BAD', sk: 'A', value: new Set(['a', 1]) } }))).rejects.toThrow(/Set of strings/);
  });

  it('refuses the legacy parameters instead of ignoring them', async () => {
    await expect(ours.send(new QueryCommand({ TableName: TABLE, KeyConditions: { pk: { ComparisonOperator: 'EQ', AttributeValueList: ['x'] } } }))).rejects.toThrow(/KeyConditions is not supported/);
  });
});

describe('operations against the embedded DynamoDB', () => {
  const key = (n: number) => ({ pk: 'OPS', sk: `#${String(n).padStart(3, '0')}` });

  beforeAll(async () => {
    await ours.send(new BatchWriteCommand({ RequestItems: { [TABLE]: Array.from({ length: 25 }, (_, n) => ({ PutRequest: { Item: { ...key(n), n, gsi1pk: 'G', gsi1sk: `${n}` } } })) } }));
  });

  it('queries page by page with Limit and ExclusiveStartKey, as the SDK does', async () => {
    // Act
    const pages: number[][] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await ours.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'OPS' }, Limit: 10, ExclusiveStartKey: start }));
      pages.push((page.Items ?? []).map((item) => item.n as number));
      start = page.LastEvaluatedKey;
    } while (start);
    const theirs = await sdk.send(new Sdk.QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'OPS' }, Limit: 10 }));

    // Assess
    expect(pages.flat()).toEqual(Array.from({ length: 25 }, (_, n) => n));
    expect(pages[0]).toEqual((theirs.Items ?? []).map((item) => item.n));
  });

  it('counts with Select COUNT, filters, and reads an index', async () => {
    const counted = await ours.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :pk', FilterExpression: 'n >= :ten', ExpressionAttributeValues: { ':pk': 'OPS', ':ten': 10 }, Select: 'COUNT' }));
    const indexed = await ours.send(new QueryCommand({ TableName: TABLE, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :g AND gsi1sk = :s', ExpressionAttributeValues: { ':g': 'G', ':s': '7' } }));
    expect(counted.Count).toBe(15);
    expect(counted).not.toHaveProperty('Items');
    expect(indexed.Items?.map((item) => item.n)).toEqual([7]);
  });

  it('scans, batch-gets and deletes with ReturnValues', async () => {
    const scanned = await ours.send(new ScanCommand({ TableName: TABLE, FilterExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'OPS' } }));
    const got = await ours.send(new BatchGetCommand({ RequestItems: { [TABLE]: { Keys: [key(3), key(4), { pk: 'OPS', sk: 'none' }], ConsistentRead: true } } }));
    const deleted = await ours.send(new DeleteCommand({ TableName: TABLE, Key: key(24), ReturnValues: 'ALL_OLD' }));
    expect(scanned.Items).toHaveLength(25);
    expect(got.Responses?.[TABLE]?.map((item) => item.n).sort()).toEqual([3, 4]);
    expect(got.UnprocessedKeys ?? {}).toEqual({});
    expect(deleted.Attributes).toMatchObject({ ...key(24), n: 24 });
  });

  it('updates with expressions and returns the new attributes', async () => {
    const updated = await ours.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key(1),
        UpdateExpression: 'SET #n = #n + :one, tags = :tags REMOVE gsi1pk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: { ':one': 1, ':tags': new Set(['a']) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    expect(updated.Attributes).toEqual({ ...key(1), n: 2, gsi1sk: '1', tags: new Set(['a']) });
  });

  it('throws ConditionalCheckFailedException on a failed condition, after one attempt', async () => {
    const error = await ours.send(new PutCommand({ TableName: TABLE, Item: key(2), ConditionExpression: 'attribute_not_exists(pk)' })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConditionalCheckFailedException);
    expect(error).toMatchObject({ name: 'ConditionalCheckFailedException', $fault: 'client', $metadata: { httpStatusCode: 400, attempts: 1 } });
  });

  it('names a validation error and does not retry it', async () => {
    const error = await ours.send(new UpdateCommand({ TableName: TABLE, Key: key(2), UpdateExpression: 'SET = broken' })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AwsServiceError);
    expect(error).toMatchObject({ name: 'ValidationException', $metadata: { httpStatusCode: 400, attempts: 1 } });
  });
});

describe('a DynamoDB that fails', () => {
  const server = useFailingServer();

  const json = (status: number, body: object, headers: Record<string, string> = {}): Answer => (_request, response) =>
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'REQ123', ...headers }).end(JSON.stringify(body));
  const throttled = json(400, { __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'Rate of requests exceeds the allowed throughput.' });
  const found = json(200, { Item: { pk: { S: 'a' }, n: { N: '1' } } });
  const get = () => new GetCommand({ TableName: 't', Key: { pk: 'a' } });

  const start = (...sequence: Answer[]) => server.script(...sequence);

  it('retries throttling and succeeds within its attempts, signing each request', async () => {
    // Prepare
    start(throttled, throttled, found);
    const fast = client({ endpoint: server.endpoint, credentials: async () => ({ ...credentials, sessionToken: 'TOKEN' }) });

    // Act
    const result = await fast.send(get());

    // Assess
    expect(result.Item).toEqual({ pk: 'a', n: 1 });
    expect(result.$metadata).toMatchObject({ httpStatusCode: 200, requestId: 'REQ123', attempts: 3 });
    expect(server.seen).toHaveLength(3);
    for (const { headers } of server.seen) {
      expect(headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
      expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=easel-local\/\d{8}\/us-east-1\/dynamodb\/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token;x-amz-target, Signature=[0-9a-f]{64}$/);
      expect(headers['x-amz-security-token']).toBe('TOKEN');
    }
    fast.destroy();
  });

  it.each([
    ['throttling that does not stop', throttled, { name: 'ThrottlingException', $fault: 'client', $retryable: { throttling: true }, $metadata: { httpStatusCode: 400, attempts: 3 } }],
    ['ProvisionedThroughputExceededException', json(400, { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'x' }), { name: 'ProvisionedThroughputExceededException', $retryable: { throttling: true }, $metadata: { attempts: 3 } }],
    ['a 500 with a JSON error', json(500, { __type: 'com.amazon.coral.service#InternalServerError', message: 'boom' }), { name: 'InternalServerError', $fault: 'server', $metadata: { httpStatusCode: 500, attempts: 3 } }],
    ['a 503 page that is not JSON', ((_q, response) => response.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>')) as Answer, { name: 'InternalServerError', $fault: 'server', $metadata: { httpStatusCode: 503, attempts: 3 } }],
    ['an error named only in x-amzn-errortype', json(400, {}, { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/' }), { name: 'ThrottlingException', $metadata: { attempts: 3 } }],
  ])('gives up on %s after its attempts with the SDK-shaped error, which guard() turns into 503', async (_case, answer, shape) => {
    // Prepare
    start(answer);
    const fast = client({ endpoint: server.endpoint });

    // Act
    const error = await fast.send(get()).catch((caught: unknown) => caught);
    const guarded = await guard('The table', () => fast.send(get())).catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(AwsServiceError);
    expect(error).toMatchObject(shape);
    expect(server.seen).toHaveLength(6);
    expect(guarded).toBeInstanceOf(UpstreamUnavailableError);
    fast.destroy();
  });

  it('does not retry an error of the request itself', async () => {
    start(json(400, { __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException', message: 'Requested resource not found' }));
    const fast = client({ endpoint: server.endpoint });
    const failed = await fast.send(get()).catch((caught: unknown) => caught);
    expect(failed).toMatchObject({ name: 'ResourceNotFoundException', message: 'Requested resource not found', $metadata: { httpStatusCode: 400, attempts: 1 } });
    expect(server.seen).toHaveLength(1);
    fast.destroy();
  });
});
