/**
 * The SDK clients as shared/aws/ builds them, against a local server that fails on purpose: each
 * attempt has its time limit, another attempt follows up to the limit, and guard() turns the
 * failure into 503 well inside the shortest route time-out. Bundled, a read loads no web streams.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { bundleOptions, PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { dynamoDocumentClient } from '#shared/aws/dynamodb.ts';
import { s3Client } from '#shared/aws/s3.ts';
import type { AwsClientSettings } from '#shared/aws/settings.ts';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import { guard } from '#shared/store/outage.ts';
import { refusingEndpoint, useFailingServer, type Answer } from '../support/failing-server.ts';
import { localSettings } from '../support/aws-settings.ts';

const run = promisify(execFile);
mkdirSync(join(PROJECT_ROOT, 'test-output'), { recursive: true });

interface Subject {
  /**
   * Whether a broken body is read again: DynamoDB's is parsed inside the attempt; an S3 object's
   * streams to the caller after send() resolves, where the SDK can no longer repeat the request.
   */
  bodyRetried: boolean;
  /** Sends one request that reads something back. */
  call(): Promise<unknown>;
  destroy(): void;
}

const BODY = Buffer.alloc(64 * 1024, 7);

/** Each client, reading one item or object; `body` is how its service's successful answer starts. */
const CLIENTS: [string, (settings: AwsClientSettings) => Subject, { contentType: string; body: Buffer }][] = [
  [
    'DynamoDB',
    (settings) => {
      const client = dynamoDocumentClient(settings);
      return { bodyRetried: true, call: () => client.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } })), destroy: () => client.destroy() };
    },
    { contentType: 'application/x-amz-json-1.0', body: Buffer.from(`{"Item":{"pk":{"S":"${'a'.repeat(BODY.length)}"}}}`) },
  ],
  [
    'S3',
    (settings) => {
      const client = s3Client(settings);
      // The object's bytes are read as asset-objects.ts reads them: the body streams after send() resolves.
      const call = async () => {
        const object = await client.send(new GetObjectCommand({ Bucket: 'b', Key: 'k' }));
        await object.Body!.transformToByteArray();
        return object;
      };
      return { bodyRetried: false, call, destroy: () => client.destroy() };
    },
    { contentType: 'image/png', body: BODY },
  ],
];

const server = useFailingServer();

function subject(make: (settings: AwsClientSettings) => Subject, settings: Partial<AwsClientSettings> = {}): Subject {
  return make(localSettings({ endpoint: server.endpoint, ...settings }));
}

describe.each(CLIENTS)('the %s client, when the connection fails', (_name, make, success) => {
  /** Sends the headers and the first kilobyte of the answer, then `then` (silence, or a dropped connection). */
  const halfAnswer =
    (then: 'stall' | 'drop'): Answer =>
    (_request, response) => {
      response.writeHead(200, { 'content-type': success.contentType, 'content-length': String(success.body.length) });
      response.write(success.body.subarray(0, 1024), () => {
        if (then === 'drop') response.socket?.destroy();
      });
    };
  const whole: Answer = (_request, response) =>
    response.writeHead(200, { 'content-type': success.contentType, 'content-length': String(success.body.length) }).end(success.body);

  it('times out a server that never answers, per attempt, as TimeoutError', async () => {
    // Prepare: headers never come.
    server.script(() => undefined);
    const client = subject(make, { requestTimeoutMs: 150, maxAttempts: 2 });
    const started = performance.now();

    // Act
    const error = await client.call().catch((caught: unknown) => caught);

    // Assess
    expect(error).toMatchObject({ name: 'TimeoutError', message: expect.stringContaining('150 ms requestTimeout'), $metadata: { attempts: 2 } });
    expect(server.seen).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    await expect(guard('The backend', () => client.call())).rejects.toBeInstanceOf(UpstreamUnavailableError);
    client.destroy();
  });

  it('times out an answer whose body stops halfway, per attempt', async () => {
    // Prepare
    server.script(halfAnswer('stall'));
    const client = subject(make, { socketTimeoutMs: 150, maxAttempts: 2 });

    // Act
    const error = await client.call().catch((caught: unknown) => caught);

    // Assess
    expect(error).toMatchObject({ name: 'TimeoutError', message: expect.stringContaining('timed out after 150 ms of inactivity') });
    expect(server.seen).toHaveLength(client.bodyRetried ? 2 : 1);
    await expect(guard('The backend', () => client.call())).rejects.toBeInstanceOf(UpstreamUnavailableError);
    client.destroy();
  });

  it('reads the answer again when its body breaks off, if the body is read inside the attempt', async () => {
    // Prepare
    server.script(halfAnswer('drop'), whole);
    const client = subject(make);

    // Act
    const result = (await client.call().catch((caught: unknown) => caught)) as { $metadata?: { attempts: number }; code?: string };

    // Assess
    if (client.bodyRetried) expect(result.$metadata?.attempts).toBe(2);
    else expect(result).toMatchObject({ code: 'ECONNRESET' });
    expect(server.seen).toHaveLength(client.bodyRetried ? 2 : 1);
    client.destroy();
  });

  it.each([
    ['before it answers', ((request) => request.socket.destroy()) as Answer],
    ['halfway through the body', halfAnswer('drop')],
  ])('retries a connection dropped %s, then names it by its code, and guard() turns it into 503', async (when, answer) => {
    // Prepare
    server.script(answer);
    const client = subject(make);

    // Act
    const error = await client.call().catch((caught: unknown) => caught);

    // Assess
    const retried = client.bodyRetried || when === 'before it answers';
    expect(error).toMatchObject({ code: 'ECONNRESET', ...(retried ? { $metadata: { attempts: 3 } } : {}) });
    expect(server.seen).toHaveLength(retried ? 3 : 1);
    await expect(guard('The backend', () => client.call())).rejects.toBeInstanceOf(UpstreamUnavailableError);
    client.destroy();
  });

  it('names a refused connection by its code, and guard() turns it into 503', async () => {
    // Prepare
    const client = subject(make, { endpoint: await refusingEndpoint() });

    // Act
    const error = await client.call().catch((caught: unknown) => caught);

    // Assess
    expect(error).toMatchObject({ code: 'ECONNREFUSED', $metadata: { attempts: 3 } });
    await expect(guard('The backend', () => client.call())).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});

describe('the DynamoDB client, bundled as the stack bundles it, in a process of its own', () => {
  it('reads an answer without loading Node’s web streams (the stream collector of clientConfig())', async () => {
    // Prepare: the child reads one item from the scripted server, then lists the web-stream modules it loaded.
    const outfile = join(mkdtempSync(join(PROJECT_ROOT, 'test-output', 'dynamodb-read-')), 'index.mjs');
    await build({ ...bundleOptions('test/fixtures/dynamodb-read/entry.ts'), outfile, logLevel: 'silent' });
    server.script((_request, response) => response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{"Item":{"pk":{"S":"a"}}}'));
    const child = [
      `const { readItem } = await import(${JSON.stringify(pathToFileURL(outfile).href)});`,
      `const Item = await readItem(${JSON.stringify(localSettings({ endpoint: server.endpoint }))});`,
      "console.log(JSON.stringify({ Item, webStreams: process.moduleLoadList.filter((name) => name.includes('webstreams')) }));",
    ].join('\n');

    // Act
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', child]);

    // Assess
    expect(JSON.parse(stdout)).toEqual({ Item: { pk: 'a' }, webStreams: [] });
  });
});
