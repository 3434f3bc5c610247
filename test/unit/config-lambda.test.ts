import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '#shared/config.ts';

const BASE = {
  PUBLIC_BASE_URL: 'https://api.easel.test',
  WORKSPACE_TABLE: 'w',
  CACHE_TABLE: 'c',
  RATE_TABLE: 'r',
  ASSETS_BUCKET: 'a',
  CACHE_BUCKET: 'b',
  DELETION_QUEUE_URL: 'https://sqs.test/q',
  AWS_REGION: 'us-east-1',
};
const ON_LAMBDA = { AWS_LAMBDA_FUNCTION_NAME: 'easel-capture' };

describe('parseConfig: test-only settings on Lambda', () => {
  it.each([
    ['UNSAFE_TEST_LOOPBACK_PORTS', { UNSAFE_TEST_LOOPBACK_PORTS: '8080' }],
    ['UNSAFE_TEST_MEDIA_HOSTS', { UNSAFE_TEST_MEDIA_HOSTS: 'pbs.twimg.com=127.0.0.1:8443' }],
    ['UNSAFE_TEST_MEDIA_CA_FILE', { UNSAFE_TEST_MEDIA_CA_FILE: '/tmp/ca.pem' }],
    ['UNSAFE_TEST_LOOPBACK_PORTS', { UNSAFE_TEST_LOOPBACK_PORTS: '' }],
    ['UNSAFE_TEST_ANYTHING', { UNSAFE_TEST_ANYTHING: '1' }],
  ])('refuses %s when AWS_LAMBDA_FUNCTION_NAME is set, naming it', (name, settings) => {
    expect(() => parseConfig({ ...BASE, ...ON_LAMBDA, ...settings })).toThrow(
      `${name} is a test-only setting, refused on AWS Lambda (AWS_LAMBDA_FUNCTION_NAME=easel-capture): remove it from the function's environment.`,
    );
  });

  it('names every test-only setting at once', () => {
    expect(() => parseConfig({ ...BASE, ...ON_LAMBDA, UNSAFE_TEST_MEDIA_HOSTS: 'pbs.twimg.com=127.0.0.1:1', UNSAFE_TEST_LOOPBACK_PORTS: '1' })).toThrow(
      'UNSAFE_TEST_LOOPBACK_PORTS, UNSAFE_TEST_MEDIA_HOSTS are test-only settings, refused on AWS Lambda',
    );
  });

  it.each([
    ['NODE_ENV=test', { NODE_ENV: 'test' }],
    ['a local endpoint', { DYNAMODB_ENDPOINT: 'http://127.0.0.1:4567' }],
    ['LOG_LEVEL=debug', { LOG_LEVEL: 'debug' }],
  ])('refuses them on Lambda whatever else the environment says (%s)', (_case, extra) => {
    expect(() => parseConfig({ ...BASE, ...ON_LAMBDA, ...extra, UNSAFE_TEST_LOOPBACK_PORTS: '8080' })).toThrow(/UNSAFE_TEST_LOOPBACK_PORTS is a test-only setting/);
  });

  it('accepts them off Lambda, where the tests and the bench use them', () => {
    expect(parseConfig({ ...BASE, UNSAFE_TEST_LOOPBACK_PORTS: '8080' }).unsafeTestLoopbackPorts).toEqual([8080]);
  });

  it('starts on Lambda without them', () => {
    expect(parseConfig({ ...BASE, ...ON_LAMBDA }).unsafeTestLoopbackPorts).toEqual([]);
  });
});

describe('cold start on Lambda with a test-only setting', () => {
  const saved = { ...process.env };

  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    vi.resetModules();
  });

  it('fails while the handler module loads, before any request', async () => {
    // Prepare: a fresh module graph, as in a new container
    vi.resetModules();
    Object.assign(process.env, ON_LAMBDA, { UNSAFE_TEST_LOOPBACK_PORTS: '8080' });

    // Act
    const loading = import('#functions/discovery/get-openapi.ts');

    // Assess
    await expect(loading).rejects.toThrow(/^UNSAFE_TEST_LOOPBACK_PORTS is a test-only setting, refused on AWS Lambda/);
  });
});
