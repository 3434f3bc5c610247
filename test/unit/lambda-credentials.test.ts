import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from '#shared/wiring/lambda-credentials.ts';

const KEYS = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_PROFILE',
];

function clearCredentialEnv(): void {
  for (const key of KEYS) vi.stubEnv(key, undefined);
}

describe('lambda credential provider', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('returns the role credentials Lambda puts in the environment', async () => {
    // Prepare
    clearCredentialEnv();
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'token');

    // Act
    const credentials = await defaultProvider()();

    // Assess
    expect(credentials).toMatchObject({ accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' });
  });

  it('reads the container credential endpoint when the environment holds no keys', async () => {
    // Prepare
    clearCredentialEnv();
    const server = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ AccessKeyId: 'AKIACONTAINER', SecretAccessKey: 'secret', Token: 'token', Expiration: new Date(Date.now() + 3_600_000).toISOString() }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    vi.stubEnv('AWS_CONTAINER_CREDENTIALS_FULL_URI', `http://127.0.0.1:${(server.address() as AddressInfo).port}/credentials`);

    // Act
    const credentials = await defaultProvider()().finally(() => server.close());

    // Assess
    expect(credentials).toMatchObject({ accessKeyId: 'AKIACONTAINER', secretAccessKey: 'secret', sessionToken: 'token' });
  });

  it('fails when neither the environment nor a container endpoint holds credentials', async () => {
    // Prepare
    clearCredentialEnv();

    // Act
    const attempt = defaultProvider()();

    // Assess
    await expect(attempt).rejects.toThrow(/environment variable credentials/);
  });
});
