/**
 * The AWS calls of a sampled invocation reach a stand-in X-Ray daemon as the X-Ray SDK writes them,
 * made against the embedded backends; an unsampled invocation never imports the SDK.
 */
import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { CreateTableCommand, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { CreateQueueCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bundleOptions, PROJECT_ROOT, xrayPackage } from '#infra/constructs/easel-function.ts';
import { type Backend, startDynamo, startS3, startSqs } from '#infra/local/backends.ts';
import { dynamoDocumentClient } from '#shared/aws/dynamodb.ts';
import { s3Client } from '#shared/aws/s3.ts';
import { sqsClient } from '#shared/aws/sqs.ts';
import { parseTraceHeader, xrayLoader } from '#shared/aws/tracing.ts';
import { localSettings } from '../support/aws-settings.ts';

const ROOT = '1-67891233-abcdef012345678912345678';
const PARENT = '53995c3f42cd8ad8';
const SAMPLED = `Root=${ROOT};Parent=${PARENT};Sampled=1;Lineage=a87bd80c:0`;
const UNSAMPLED = `Root=${ROOT};Parent=${PARENT};Sampled=0;Lineage=a87bd80c:0`;
const VARIABLES = ['LAMBDA_TASK_ROOT', 'AWS_XRAY_DAEMON_ADDRESS', '_X_AMZN_TRACE_ID'] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

const require = createRequire(import.meta.url);
/** Whether Node has loaded the X-Ray SDK in this process (the test file's own fork). */
const xrayLoaded = () => require.cache[require.resolve('aws-xray-sdk-core')] !== undefined;

/** The stand-in daemon: every datagram, split into the protocol header and the document. */
const daemon = createSocket('udp4');
const datagrams: { header: unknown; document: Record<string, unknown> }[] = [];
daemon.on('message', (message) => {
  const text = message.toString('utf8');
  const newline = text.indexOf('\n');
  datagrams.push({ header: JSON.parse(text.slice(0, newline)), document: JSON.parse(text.slice(newline + 1)) });
});

let dataDir: string;
const backends: Backend[] = [];
let endpoints: { dynamodb: string; s3: string; sqs: string };
let queueUrl: string;
const loads = vi.spyOn(xrayLoader, 'load');

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'easel-tracing-'));
  for (const start of [startDynamo, startS3, startSqs]) backends.push(await start(dataDir, 0));
  const [dynamodb, s3, sqs] = backends.map((backend) => backend.endpoint) as [string, string, string];
  endpoints = { dynamodb, s3, sqs };
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  // As Lambda sets them for a function with active tracing.
  process.env.LAMBDA_TASK_ROOT = '/var/task';
  process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${daemon.address().port}`;
  process.env._X_AMZN_TRACE_ID = UNSAMPLED;
  await dynamoDocumentClient(localSettings({ endpoint: dynamodb })).send(
    new CreateTableCommand({
      TableName: 'workspace',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await s3Client(localSettings({ endpoint: s3 })).send(new CreateBucketCommand({ Bucket: 'assets' }));
  queueUrl = (await sqsClient(localSettings({ endpoint: sqs })).send(new CreateQueueCommand({ QueueName: 'deletion' }))).QueueUrl!;
});

afterEach(() => {
  datagrams.length = 0;
  process.env._X_AMZN_TRACE_ID = UNSAMPLED;
});

afterAll(async () => {
  daemon.close();
  for (const backend of backends) await backend.stop();
  await rm(dataDir, { recursive: true, force: true });
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('parseTraceHeader', () => {
  it("reads Lambda's trace header, and refuses one without a root or a parent", () => {
    expect(parseTraceHeader(SAMPLED)).toEqual({ root: ROOT, parent: PARENT, sampled: true });
    expect(parseTraceHeader(`Root=${ROOT};Sampled=1`)).toBeUndefined();
    expect(parseTraceHeader(undefined)).toBeUndefined();
  });
});

// In file order: the unsampled calls run before any sampled one has loaded the SDK into this fork.
describe('traceAwsCalls, unsampled', () => {
  it('makes the calls of an unsampled invocation without importing the X-Ray SDK or sending anything', async () => {
    // Act
    const item = await dynamoDocumentClient(localSettings({ endpoint: endpoints.dynamodb })).send(
      new GetItemCommand({ TableName: 'workspace', Key: { pk: { S: 'a' } } }),
    );
    await s3Client(localSettings({ endpoint: endpoints.s3 })).send(new PutObjectCommand({ Bucket: 'assets', Key: 'k', Body: 'x' }));
    await sqsClient(localSettings({ endpoint: endpoints.sqs })).send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'm' }));

    // Assess
    expect(item.$metadata.httpStatusCode).toBe(200);
    expect(loads).not.toHaveBeenCalled();
    expect(xrayLoaded()).toBe(false);
    expect(datagrams).toEqual([]);
  });

  it('adds nothing to a client where there is no daemon (the local runtime, tests)', () => {
    // Prepare
    delete process.env.AWS_XRAY_DAEMON_ADDRESS;

    try {
      // Act
      const client = sqsClient(localSettings({ endpoint: endpoints.sqs }));

      // Assess
      expect(client.middlewareStack.identify().some((entry) => entry.includes('easelXRay'))).toBe(false);
    } finally {
      process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${daemon.address().port}`;
    }
  });
});

describe('traceAwsCalls, sampled', () => {
  it("sends one subsegment per call under the invocation's segment, with the operation, table and request id", async () => {
    // Prepare
    process.env._X_AMZN_TRACE_ID = SAMPLED;
    const client = dynamoDocumentClient(localSettings({ endpoint: endpoints.dynamodb }));

    // Act
    await client.send(new GetItemCommand({ TableName: 'workspace', Key: { pk: { S: 'a' } } }));

    // Assess
    await expect.poll(() => datagrams.length).toBe(1);
    const [{ header, document }] = datagrams as [(typeof datagrams)[number]];
    expect(header).toEqual({ format: 'json', version: 1 });
    expect(document).toMatchObject({
      type: 'subsegment',
      trace_id: ROOT,
      parent_id: PARENT,
      name: 'DynamoDB',
      namespace: 'aws',
      aws: { operation: 'GetItem', table_name: 'workspace', region: 'us-east-1', retries: 1 },
      http: { response: { status: 200 } },
    });
    expect(document.id).toMatch(/^[0-9a-f]{16}$/);
    expect((document.aws as { request_id?: unknown }).request_id).toEqual(expect.any(String));
    expect(document.end_time as number).toBeGreaterThanOrEqual(document.start_time as number);
    expect(document).not.toHaveProperty('error');
    expect(loads).toHaveBeenCalled();
    expect(xrayLoaded()).toBe(true);
  });

  it("names the bucket and key of an S3 call, and the queue of an SQS call, whose request carries the subsegment's trace header", async () => {
    // Prepare
    process.env._X_AMZN_TRACE_ID = SAMPLED;
    const s3 = s3Client(localSettings({ endpoint: endpoints.s3 }));
    const sqs = sqsClient(localSettings({ endpoint: endpoints.sqs }));
    const sentHeaders: unknown[] = [];
    sqs.middlewareStack.add(
      (next) => async (args) => {
        sentHeaders.push((args.request as { headers: Record<string, string> }).headers['X-Amzn-Trace-Id']);
        return next(args);
      },
      { step: 'finalizeRequest', name: 'recordTraceHeader' },
    );

    // Act
    await s3.send(new PutObjectCommand({ Bucket: 'assets', Key: 'shots/a.png', Body: 'x' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'm' }));

    // Assess
    await expect.poll(() => datagrams.length).toBe(2);
    const [put, send] = datagrams.map(({ document }) => document) as [Record<string, unknown>, Record<string, unknown>];
    expect(put).toMatchObject({ name: 'S3', parent_id: PARENT, aws: { operation: 'PutObject', bucket_name: 'assets', key: 'shots/a.png' } });
    expect(send).toMatchObject({ name: 'SQS', parent_id: PARENT, aws: { operation: 'SendMessage', queue_url: queueUrl } });
    expect(sentHeaders).toEqual([`Root=${ROOT};Parent=${send.id};Sampled=1;Lineage=a87bd80c:0`]);
  });

  // The SDK marks every call that throws as a fault as well, whatever its status.
  it('marks a refused call as an error with its exception, and still throws', async () => {
    // Prepare
    process.env._X_AMZN_TRACE_ID = SAMPLED;
    const client = dynamoDocumentClient(localSettings({ endpoint: endpoints.dynamodb }));

    // Act
    const refused = client.send(new GetItemCommand({ TableName: 'missing', Key: { pk: { S: 'a' } } }));

    // Assess
    await expect(refused).rejects.toThrow(expect.objectContaining({ name: 'ResourceNotFoundException' }));
    await expect.poll(() => datagrams.length).toBe(1);
    const { document } = datagrams[0]!;
    expect(document).toMatchObject({
      name: 'DynamoDB',
      error: true,
      fault: true,
      aws: { operation: 'GetItem', table_name: 'missing' },
      http: { response: { status: 400 } },
    });
    expect(document).not.toHaveProperty('throttle');
    expect(JSON.stringify(document.cause)).toContain('ResourceNotFoundException');
  });

  it('marks a throttled call as a throttle', async () => {
    // Prepare: DynamoDB's throttling answer, which the embedded backend never gives.
    process.env._X_AMZN_TRACE_ID = SAMPLED;
    const server = createServer((_request, response) =>
      response
        .writeHead(400, { 'content-type': 'application/x-amz-json-1.0' })
        .end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'slow down' })),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = dynamoDocumentClient(localSettings({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, maxAttempts: 1 }));

    try {
      // Act
      await expect(client.send(new GetItemCommand({ TableName: 'workspace', Key: { pk: { S: 'a' } } }))).rejects.toThrow();

      // Assess
      await expect.poll(() => datagrams.length).toBe(1);
      expect(datagrams[0]!.document).toMatchObject({ name: 'DynamoDB', error: true, throttle: true });
    } finally {
      server.close();
    }
  });
});

describe('traceAwsCalls, bundled as the stack bundles it', () => {
  it('sends the subsegment from a process of its own, through the SDK the synth puts beside the bundle', async () => {
    // Prepare
    mkdirSync(join(PROJECT_ROOT, 'test-output'), { recursive: true });
    const outfile = join(mkdtempSync(join(PROJECT_ROOT, 'test-output', 'traced-read-')), 'index.mjs');
    await build({ ...bundleOptions('test/fixtures/dynamodb-read/entry.ts'), outfile, logLevel: 'silent' });
    mkdirSync(join(outfile, '..', 'node_modules'), { recursive: true });
    cpSync(xrayPackage(), join(outfile, '..', 'node_modules', 'aws-xray-sdk-core'), { recursive: true });
    const child = [
      `const { readItem } = await import(${JSON.stringify(pathToFileURL(outfile).href)});`,
      // Its table, 't', is a name DynamoDB refuses: the call fails, and its subsegment says so.
      `await readItem(${JSON.stringify(localSettings({ endpoint: endpoints.dynamodb }))}).catch((error) => console.log(error.name));`,
    ].join('\n');

    // Act
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', child], {
      env: { ...process.env, _X_AMZN_TRACE_ID: SAMPLED },
    });

    // Assess
    expect(stdout.trim()).toBe('ValidationException');
    await expect.poll(() => datagrams.length).toBe(1);
    expect(datagrams[0]!.document).toMatchObject({
      type: 'subsegment',
      trace_id: ROOT,
      parent_id: PARENT,
      name: 'DynamoDB',
      error: true,
      aws: { operation: 'GetItem', table_name: 't' },
    });
  });
});
