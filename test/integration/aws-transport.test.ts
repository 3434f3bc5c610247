/**
 * The failures every client in shared/aws/ meets alike, because aws/transport.ts handles them for
 * all of them: a server that never answers, a body that stops or breaks off halfway, a connection
 * dropped before the answer, one refused. For each client, against a local server that fails on
 * purpose: each attempt has its time limit, another attempt follows up to the limit, the error is
 * named as the SDK names it (TimeoutError, the socket's code), and guard() turns it into 503.
 * How each client reads its service's own errors is in dynamodb-client.test.ts and s3-client.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DynamoClient, GetCommand } from '#shared/aws/dynamodb.ts';
import { GetObjectCommand, S3Client } from '#shared/aws/s3.ts';
import type { AwsClientSettings } from '#shared/aws/transport.ts';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import { guard } from '#shared/store/sdk-calls.ts';
import { refusingEndpoint, useFailingServer, type Answer } from '../support/failing-server.ts';
import { localSettings } from '../support/aws-settings.ts';

interface Subject {
  /** The signing name its messages carry. */
  service: string;
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
      const client = new DynamoClient(settings);
      return { service: 'dynamodb', call: () => client.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } })), destroy: () => client.destroy() };
    },
    { contentType: 'application/x-amz-json-1.0', body: Buffer.from(`{"Item":{"pk":{"S":"${'a'.repeat(BODY.length)}"}}}`) },
  ],
  [
    'S3',
    (settings) => {
      const client = new S3Client(settings);
      return { service: 's3', call: () => client.send(new GetObjectCommand({ Bucket: 'b', Key: 'k' })), destroy: () => client.destroy() };
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
    expect(error).toMatchObject({ name: 'TimeoutError', message: `${client.service} did not answer within 150 ms`, $metadata: { attempts: 2 } });
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
    expect(error).toMatchObject({ name: 'TimeoutError', message: `no data from ${client.service} for 150 ms`, $metadata: { attempts: 2 } });
    expect(server.seen).toHaveLength(2);
    await expect(guard('The backend', () => client.call())).rejects.toBeInstanceOf(UpstreamUnavailableError);
    client.destroy();
  });

  it('reads the answer again when its body breaks off, and succeeds within its attempts', async () => {
    // Prepare
    server.script(halfAnswer('drop'), whole);
    const client = subject(make);

    // Act
    const result = (await client.call()) as { $metadata: { attempts: number } };

    // Assess
    expect(result.$metadata.attempts).toBe(2);
    expect(server.seen).toHaveLength(2);
    client.destroy();
  });

  it.each([
    ['before it answers', ((request) => request.socket.destroy()) as Answer],
    ['halfway through the body', halfAnswer('drop')],
  ])('retries a connection dropped %s, then names it by its code, and guard() turns it into 503', async (_case, answer) => {
    // Prepare
    server.script(answer);
    const client = subject(make);

    // Act
    const error = await client.call().catch((caught: unknown) => caught);

    // Assess
    expect(error).toMatchObject({ code: 'ECONNRESET', $metadata: { attempts: 3 } });
    expect(server.seen).toHaveLength(3);
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
