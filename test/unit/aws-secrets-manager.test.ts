/**
 * Easel's Secrets Manager client (shared/aws/secrets-manager.ts) held to the SDK's: both send the
 * same GetSecretValue at the same date to a local server that records them, and the request on
 * the wire (path, headers, body, signature) must be the same, the answer read alike, an error
 * named alike (the SDK's telemetry headers left out: test/support/sdk-telemetry.ts). Then the
 * reader of the maintainers' secret (wiring/internal-auth.ts) on it.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as Sdk from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GetSecretValueCommand, SecretsManagerClient } from '#shared/aws/secrets-manager.ts';
import type { AwsCredentials } from '#shared/aws/sigv4.ts';
import { readSecretString } from '#shared/wiring/internal-auth.ts';
import { withoutTelemetry } from '../support/sdk-telemetry.ts';

const TEMPORARY: AwsCredentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+token==' };
const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:easel-internal-AbCdEf';

describe('GetSecretValue on the wire', () => {
  const recorded: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let answer: (response: ServerResponse) => void = () => undefined;
  const server = createServer((request, response) => {
    // A Date header would let the SDK correct its (frozen) clock to the real one.
    response.sendDate = false;
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      recorded.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      answer(response);
    });
  });
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    recorded.length = 0;
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-23T19:34:22Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function clients() {
    const sdk = withoutTelemetry(new Sdk.SecretsManagerClient({ region: 'eu-west-1', endpoint, credentials: TEMPORARY, maxAttempts: 1 }));
    const ours = new SecretsManagerClient({ region: 'eu-west-1', endpoint, credentials: async () => TEMPORARY, maxAttempts: 1, connectionTimeoutMs: 1_000, requestTimeoutMs: 2_000, socketTimeoutMs: 2_000 });
    return { sdk, ours };
  }

  it('sends the request the SDK sends and reads the answer alike', async () => {
    // Prepare
    answer = (response) =>
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': 'REQ1' }).end(
        JSON.stringify({
          ARN,
          Name: 'easel-internal',
          VersionId: 'a1b2c3d4-5678-90ab-cdef-EXAMPLE11111',
          SecretString: 'the secret — ü',
          SecretBinary: Buffer.from([0, 1, 254, 255]).toString('base64'),
          VersionStages: ['AWSCURRENT'],
          CreatedDate: 1_764_000_000.123,
        }),
      );
    const { sdk, ours } = clients();

    // Act
    const expected = await sdk.send(new Sdk.GetSecretValueCommand({ SecretId: ARN, VersionStage: 'AWSCURRENT' }));
    const actual = await ours.send(new GetSecretValueCommand({ SecretId: ARN, VersionStage: 'AWSCURRENT' }));

    // Assess
    expect(recorded).toHaveLength(2);
    expect(recorded[1]).toEqual(recorded[0]);
    expect(actual).toEqual({ ...expected, $metadata: { ...expected.$metadata, attempts: 1, totalRetryDelay: 0 } });
    expect(actual.CreatedDate).toBeInstanceOf(Date);
    sdk.destroy();
    ours.destroy();
  });

  it('names an error as the SDK does, without retrying it', async () => {
    // Prepare
    answer = (response) =>
      response
        .writeHead(400, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': 'REQ2' })
        .end(JSON.stringify({ __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." }));
    const { sdk, ours } = clients();

    // Act
    const expected = (await sdk.send(new Sdk.GetSecretValueCommand({ SecretId: ARN })).catch((caught: unknown) => caught)) as Sdk.SecretsManagerServiceException;
    const actual = await ours.send(new GetSecretValueCommand({ SecretId: ARN })).catch((caught: unknown) => caught);

    // Assess
    expect(actual).toMatchObject({ name: expected.name, message: expected.message, $fault: expected.$fault, $metadata: { httpStatusCode: 400, requestId: 'REQ2', attempts: 1 } });
    sdk.destroy();
    ours.destroy();
  });
});

describe('readSecretString', () => {
  // Stubbed only here: the tests above send for real.
  let secrets: ReturnType<typeof mockClient>;
  beforeAll(() => {
    secrets = mockClient(SecretsManagerClient as never) as unknown as ReturnType<typeof mockClient>;
  });
  afterAll(() => secrets.restore());
  beforeEach(() => secrets.reset());

  it('reads the string value of the secret by its ARN', async () => {
    // Prepare
    secrets.on(GetSecretValueCommand as never, { SecretId: ARN }).resolves({ SecretString: 'maintainers' } as never);

    // Act
    const value = await readSecretString(ARN);

    // Assess
    expect(value).toBe('maintainers');
  });

  it('refuses a secret without a string value', async () => {
    // Prepare
    secrets.on(GetSecretValueCommand as never).resolves({ SecretBinary: new Uint8Array([1]) } as never);

    // Act
    const reading = readSecretString(ARN);

    // Assess
    await expect(reading).rejects.toThrow(`Secret ${ARN} has no string value`);
  });
});
