import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '#shared/config.ts';

const BASE = {
  PUBLIC_BASE_URL: 'https://api.easel.test',
  WORKSPACE_TABLE: 'w',
  CACHE_TABLE: 'c',
  RATE_TABLE: 'r',
  ASSETS_BUCKET: 'a',
  CACHE_BUCKET: 'b',
  DELETION_QUEUE_URL: 'https://sqs.test/q',
  MAIL_QUEUE_URL: 'https://sqs.test/mail',
  SHOT_QUEUE_URL: 'https://sqs.test/s',
  AWS_REGION: 'us-east-1',
};
const dir = mkdtempSync(join(tmpdir(), 'easel-config-test-'));
const caFile = join(dir, 'ca.pem');
writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\ntest\n-----END CERTIFICATE-----\n');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseConfig: tweet and media proxy settings', () => {
  it('uses the documented defaults, with no test-only mapping', () => {
    const config = parseConfig(BASE);

    expect(config.tweets).toEqual({ upstreamUrl: 'https://cdn.syndication.twimg.com', timeoutMs: 4000, cacheSeconds: 300, staleSeconds: 3600 });
    expect(config.mediaProxy).toEqual({
      maxBytes: 20 * 1024 * 1024,
      connectTimeoutMs: 3000,
      readTimeoutMs: 10_000,
      unsafeTestHosts: new Map(),
      unsafeTestCa: undefined,
    });
  });

  it('reads overrides and trims a trailing slash from the upstream URL', () => {
    const config = parseConfig({ ...BASE, TWEET_UPSTREAM_URL: 'http://127.0.0.1:9999/', TWEET_CACHE_SECONDS: '0', MEDIA_PROXY_MAX_BYTES: '1024' });

    expect(config.tweets).toMatchObject({ upstreamUrl: 'http://127.0.0.1:9999', cacheSeconds: 0 });
    expect(config.mediaProxy.maxBytes).toBe(1024);
  });

  it('maps media hosts to loopback only for opted-in ports, and trusts the test CA for them', () => {
    const config = parseConfig({
      ...BASE,
      UNSAFE_TEST_LOOPBACK_PORTS: '8443',
      UNSAFE_TEST_MEDIA_HOSTS: 'pbs.twimg.com=127.0.0.1:8443, video.twimg.com=127.0.0.1:8443',
      UNSAFE_TEST_MEDIA_CA_FILE: caFile,
    });

    expect(config.mediaProxy.unsafeTestHosts).toEqual(
      new Map([
        ['pbs.twimg.com', 8443],
        ['video.twimg.com', 8443],
      ]),
    );
    expect(config.mediaProxy.unsafeTestCa).toContain('BEGIN CERTIFICATE');
  });

  it.each([
    ['a mapped port that is not opted in', { UNSAFE_TEST_MEDIA_HOSTS: 'pbs.twimg.com=127.0.0.1:8443' }, /not in UNSAFE_TEST_LOOPBACK_PORTS/],
    [
      'a host off the allowlist',
      { UNSAFE_TEST_LOOPBACK_PORTS: '8443', UNSAFE_TEST_MEDIA_HOSTS: 'example.com=127.0.0.1:8443' },
      /not an allowlisted media host/,
    ],
    [
      'a target other than 127.0.0.1',
      { UNSAFE_TEST_LOOPBACK_PORTS: '8443', UNSAFE_TEST_MEDIA_HOSTS: 'pbs.twimg.com=10.0.0.5:8443' },
      /expected host=127\.0\.0\.1:port/,
    ],
    ['a CA without a mapping', { UNSAFE_TEST_MEDIA_CA_FILE: caFile }, /only honoured together with UNSAFE_TEST_MEDIA_HOSTS/],
    ['an upstream URL with a path', { TWEET_UPSTREAM_URL: 'https://cdn.syndication.twimg.com/tweet-result' }, /must be an origin/],
    ['a public base URL with a path', { PUBLIC_BASE_URL: 'https://api.easel.test/prod' }, /PUBLIC_BASE_URL must be an origin/],
    ['a public base URL with a character HTML escapes', { PUBLIC_BASE_URL: 'https://api.easel.test&x=<b>' }, /PUBLIC_BASE_URL must be an origin/],
    ['a public base URL with a space', { PUBLIC_BASE_URL: 'https://api.easel .test' }, /PUBLIC_BASE_URL must be an origin/],
    ['a time-out that is not a number', { TWEET_TIMEOUT_MS: 'soon' }, /TWEET_TIMEOUT_MS must be an integer/],
    ['a size cap of zero', { MEDIA_PROXY_MAX_BYTES: '0' }, /MEDIA_PROXY_MAX_BYTES must be an integer from 1/],
  ])('refuses %s at cold start', (_case, env, message) => {
    expect(() => parseConfig({ ...BASE, ...env })).toThrow(message);
  });
});

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
    expect(() => parseConfig({ ...BASE, ...ON_LAMBDA, ...extra, UNSAFE_TEST_LOOPBACK_PORTS: '8080' })).toThrow(
      /UNSAFE_TEST_LOOPBACK_PORTS is a test-only setting/,
    );
  });

  it('accepts them off Lambda, where the tests and the bench use them', () => {
    expect(parseConfig({ ...BASE, UNSAFE_TEST_LOOPBACK_PORTS: '8080' }).unsafeTestLoopbackPorts).toEqual([8080]);
  });

  it('starts on Lambda without them', () => {
    expect(parseConfig({ ...BASE, ...ON_LAMBDA }).unsafeTestLoopbackPorts).toEqual([]);
  });
});

describe('parseConfig: LOCAL_CAPTURE_PORTS', () => {
  it('reads the loopback ports a local run may capture', () => {
    expect(parseConfig({ ...BASE, LOCAL_CAPTURE_PORTS: '3000, 5173' }).capture.localPorts).toEqual([3000, 5173]);
  });

  it('opens no port when unset', () => {
    expect(parseConfig(BASE).capture.localPorts).toEqual([]);
  });

  it('refuses a value that is not a port', () => {
    expect(() => parseConfig({ ...BASE, LOCAL_CAPTURE_PORTS: '3000,http' })).toThrow('LOCAL_CAPTURE_PORTS: not a port: http');
  });

  it('is refused on Lambda, naming it', () => {
    expect(() => parseConfig({ ...BASE, ...ON_LAMBDA, LOCAL_CAPTURE_PORTS: '3000' })).toThrow(
      "LOCAL_CAPTURE_PORTS is a local-only setting, refused on AWS Lambda (AWS_LAMBDA_FUNCTION_NAME=easel-capture): remove it from the function's environment.",
    );
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

describe('parseConfig: AWS call time-outs', () => {
  it('keeps the fail-fast limits by default and takes raised ones within bounds', () => {
    expect(parseConfig(BASE).sdkTimeouts).toEqual({ connectionTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
    expect(parseConfig({ ...BASE, SDK_CONNECT_TIMEOUT_MS: '10000', SDK_REQUEST_TIMEOUT_MS: '8000' }).sdkTimeouts).toEqual({
      connectionTimeoutMs: 10_000,
      requestTimeoutMs: 8_000,
    });
    expect(() => parseConfig({ ...BASE, SDK_REQUEST_TIMEOUT_MS: '60000' })).toThrow('SDK_REQUEST_TIMEOUT_MS must be an integer from 500 to 10000, got 60000');
  });
});
