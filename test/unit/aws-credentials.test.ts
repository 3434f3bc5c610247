/**
 * Where Easel's own AWS clients (shared/aws/) get credentials: the environment first, as Lambda
 * hands them; a container endpoint in a deployed function without them; a cached fallback that is
 * asked again only near expiry.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedProvider, containerCredentials, containerOnly, environmentCredentials, environmentThen } from '#shared/aws/credentials.ts';

describe('credentials from the environment', () => {
  it('reads the keys and the session token Lambda sets', () => {
    expect(environmentCredentials({ AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' })).toEqual({ accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'token' });
    expect(environmentCredentials({ AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'secret' })).toEqual({ accessKeyId: 'AKID', secretAccessKey: 'secret' });
  });

  it('has none without both keys', () => {
    expect(environmentCredentials({ AWS_ACCESS_KEY_ID: 'AKID' })).toBeUndefined();
    expect(environmentCredentials({ AWS_SECRET_ACCESS_KEY: 'secret' })).toBeUndefined();
    expect(environmentCredentials({})).toBeUndefined();
  });

  it('prefers the environment to the fallback, which it then never asks', async () => {
    // Prepare
    let asked = 0;
    const provider = environmentThen(async () => {
      asked += 1;
      return { accessKeyId: 'fallback', secretAccessKey: 'x' };
    });
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = 'from-env';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret';

    try {
      // Act
      const credentials = await provider();

      // Assess
      expect(credentials.accessKeyId).toBe('from-env');
      expect(asked).toBe(0);
    } finally {
      for (const [name, value] of [['AWS_ACCESS_KEY_ID', saved.id], ['AWS_SECRET_ACCESS_KEY', saved.secret]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe('a cached provider', () => {
  it('asks its source once while the credentials are good, again when they expire within five minutes', async () => {
    // Prepare
    const source = (expiresInMs: number) => {
      const counter = { asked: 0 };
      const provider = cachedProvider(async () => {
        counter.asked += 1;
        return { accessKeyId: `key-${counter.asked}`, secretAccessKey: 'x', expiration: new Date(Date.now() + expiresInMs) };
      });
      return { counter, provider };
    };
    const lasting = source(60 * 60_000);
    const expiring = source(4 * 60_000);

    // Act
    const lastingKeys = [(await lasting.provider()).accessKeyId, (await lasting.provider()).accessKeyId];
    const expiringKeys = [(await expiring.provider()).accessKeyId, (await expiring.provider()).accessKeyId];

    // Assess
    expect(lastingKeys).toEqual(['key-1', 'key-1']);
    expect(lasting.counter.asked).toBe(1);
    expect(expiringKeys).toEqual(['key-1', 'key-2']);
    expect(expiring.counter.asked).toBe(2);
  });

  it('asks again after a failure', async () => {
    let asked = 0;
    const provider = cachedProvider(async () => {
      asked += 1;
      if (asked === 1) throw new Error('no credentials yet');
      return { accessKeyId: 'later', secretAccessKey: 'x' };
    });
    await expect(provider()).rejects.toThrow('no credentials yet');
    await expect(provider()).resolves.toMatchObject({ accessKeyId: 'later' });
  });
});

describe('the container credential endpoint', () => {
  const requests: IncomingHttpHeaders[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    requests.push(request.headers);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ AccessKeyId: 'ASIA', SecretAccessKey: 'secret', Token: 'session', Expiration: '2026-11-23T20:00:00Z' }));
  });
  let url = '';
  let dir = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/credentials`;
    dir = await mkdtemp(join(tmpdir(), 'easel-credentials-'));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  it('is not consulted when no endpoint is set', async () => {
    await expect(containerCredentials({})).resolves.toBeUndefined();
  });

  it('reads credentials with the authorization token, from the variable or its file', async () => {
    // Prepare
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, 'file-token\n');
    requests.length = 0;
    status = 200;

    // Act
    const inline = await containerCredentials({ AWS_CONTAINER_CREDENTIALS_FULL_URI: url, AWS_CONTAINER_AUTHORIZATION_TOKEN: 'inline-token' });
    const fromFile = await containerCredentials({ AWS_CONTAINER_CREDENTIALS_FULL_URI: url, AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: tokenFile });

    // Assess
    expect(inline).toEqual({ accessKeyId: 'ASIA', secretAccessKey: 'secret', sessionToken: 'session', expiration: new Date('2026-11-23T20:00:00Z') });
    expect(fromFile).toEqual(inline);
    expect(requests.map((headers) => headers.authorization)).toEqual(['inline-token', 'file-token']);
  });

  it('fails with the status the endpoint answered', async () => {
    status = 403;
    await expect(containerCredentials({ AWS_CONTAINER_CREDENTIALS_FULL_URI: url })).rejects.toThrow('the container credential endpoint answered 403');
  });

  it('leaves a deployed function without credentials with a message that says what is missing', async () => {
    const saved = { ...process.env };
    for (const name of ['AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI']) delete process.env[name];
    try {
      await expect(containerOnly()).rejects.toThrow(/No AWS credentials: neither AWS_ACCESS_KEY_ID\/AWS_SECRET_ACCESS_KEY nor a container credential endpoint/);
    } finally {
      Object.assign(process.env, saved);
    }
  });
});
