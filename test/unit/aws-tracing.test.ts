import { createSocket } from 'node:dgram';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dynamoDocumentClient } from '#shared/aws/dynamodb.ts';
import { sqsClient } from '#shared/aws/sqs.ts';
import { parseTraceHeader, setTraceSender } from '#shared/aws/tracing.ts';
import type { AwsClientSettings } from '#shared/aws/settings.ts';

const TRACE = 'Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8;Sampled=1;Lineage=a87bd80c:0';
const saved = { trace: process.env._X_AMZN_TRACE_ID, daemon: process.env.AWS_XRAY_DAEMON_ADDRESS };

/** A stand-in DynamoDB on loopback that answers every request with the next of `answers`. */
let answers: { status: number; body: object }[] = [];
const server = createServer((_request, response) => {
  const answer = answers.shift() ?? { status: 200, body: {} };
  response.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'REQ123' }).end(JSON.stringify(answer.body));
});
beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function settings(): AwsClientSettings {
  return {
    region: 'eu-west-1',
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    maxAttempts: 1,
    connectionTimeoutMs: 2_000,
    requestTimeoutMs: 5_000,
    socketTimeoutMs: 5_000,
  };
}

let sent: Record<string, unknown>[] = [];

beforeEach(() => {
  sent = [];
  process.env._X_AMZN_TRACE_ID = TRACE;
  delete process.env.AWS_XRAY_DAEMON_ADDRESS;
  setTraceSender((document) => sent.push(JSON.parse(document) as Record<string, unknown>));
});

afterEach(() => {
  setTraceSender(undefined);
  for (const [name, value] of [
    ['_X_AMZN_TRACE_ID', saved.trace],
    ['AWS_XRAY_DAEMON_ADDRESS', saved.daemon],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('parseTraceHeader', () => {
  it("reads Lambda's trace header, and refuses one without a root or a parent", () => {
    expect(parseTraceHeader(TRACE)).toEqual({ root: '1-67891233-abcdef012345678912345678', parent: '53995c3f42cd8ad8', sampled: true });
    expect(parseTraceHeader('Root=1-67891233-abcdef012345678912345678;Sampled=1')).toBeUndefined();
    expect(parseTraceHeader(undefined)).toBeUndefined();
  });
});

describe('traceAwsCalls', () => {
  it("sends one subsegment per call, under the invocation's segment, with the operation, table and request id", async () => {
    // Prepare
    answers = [{ status: 200, body: { Item: { id: { S: 'x' } } } }];
    const client = dynamoDocumentClient(settings());

    // Act
    await client.send(new GetItemCommand({ TableName: 'workspace', Key: { id: { S: 'x' } } }));

    // Assess
    expect(sent).toHaveLength(1);
    const document = sent[0]!;
    expect(document).toMatchObject({
      type: 'subsegment',
      trace_id: '1-67891233-abcdef012345678912345678',
      parent_id: '53995c3f42cd8ad8',
      name: 'DynamoDB',
      namespace: 'aws',
      aws: { operation: 'GetItem', table_name: 'workspace', request_id: 'REQ123', retries: 0, region: process.env.AWS_REGION },
      http: { response: { status: 200 } },
    });
    expect(document.id).toMatch(/^[0-9a-f]{16}$/);
    expect(document.end_time as number).toBeGreaterThanOrEqual(document.start_time as number);
    expect(document).not.toHaveProperty('error');
  });

  it('marks a refused call as an error and a throttled one as a throttle, and still throws', async () => {
    // Prepare
    answers = [
      { status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'no' } },
      { status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'slow down' } },
    ];
    const client = dynamoDocumentClient(settings());

    // Act + Assess
    await expect(client.send(new GetItemCommand({ TableName: 't', Key: {} }))).rejects.toThrow();
    await expect(client.send(new GetItemCommand({ TableName: 't', Key: {} }))).rejects.toThrow();
    expect(sent.map((document) => [document.error, document.throttle, document.fault])).toEqual([
      [true, undefined, undefined],
      [true, true, undefined],
    ]);
  });

  it('sends nothing outside a sampled invocation (the control: the same call as above)', async () => {
    // Prepare
    process.env._X_AMZN_TRACE_ID = TRACE.replace('Sampled=1', 'Sampled=0');
    const client = dynamoDocumentClient(settings());

    // Act
    await client.send(new GetItemCommand({ TableName: 'workspace', Key: {} }));

    // Assess
    expect(sent).toEqual([]);
  });

  it('adds nothing to a client where there is no daemon (local runs, tests)', () => {
    // Prepare
    setTraceSender(undefined);

    // Act
    const client = sqsClient(settings());

    // Assess
    expect(client.middlewareStack.identify().some((entry) => entry.includes('easelXRaySubsegment'))).toBe(false);
  });

  it("writes the daemon's header and the document to AWS_XRAY_DAEMON_ADDRESS over UDP", async () => {
    // Prepare: a stand-in daemon on loopback.
    setTraceSender(undefined);
    const daemon = createSocket('udp4');
    const received = new Promise<string>((resolve) => daemon.once('message', (message) => resolve(message.toString('utf8'))));
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${daemon.address().port}`;
    const client = dynamoDocumentClient(settings());

    try {
      // Act
      await client.send(new GetItemCommand({ TableName: 'workspace', Key: {} }));

      // Assess: the test's own time-out is the deadline.
      const [header, document] = (await received).split('\n');
      expect(JSON.parse(header!)).toEqual({ format: 'json', version: 1 });
      expect(JSON.parse(document!)).toMatchObject({ type: 'subsegment', name: 'DynamoDB', aws: { operation: 'GetItem' } });
    } finally {
      daemon.close();
    }
  });
});
