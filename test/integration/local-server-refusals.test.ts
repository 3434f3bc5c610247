/**
 * The local server's own answers — 503 while it starts, a body over Lambda's limit, what Node's
 * parser refuses, a dispatch that fails — carry what every route's answer carries: the envelope,
 * a request id on the answer and its log line, and the security headers.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES, startServer, type LocalServer } from '#infra/local/server.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { useLogLines } from '../support/log-lines.ts';

let server: LocalServer;

beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, configuredBaseUrl: undefined });
});

afterAll(async () => {
  await server?.stop();
});

const captured = useLogLines();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What every answer carries, the route's and the server's own. */
function expectAlwaysOn(headers: Record<string, string>): void {
  expect(headers['x-request-id']).toMatch(UUID);
  expect(headers).toMatchObject({
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cache-control': 'no-store',
    'access-control-allow-origin': '*',
  });
  // Its log line carries the same id.
  expect(captured.lines.filter((line) => line.requestId === headers['x-request-id'] && typeof line.msg === 'string')).toHaveLength(1);
}

/** Writes bytes to a fresh connection and reads the response until the server closes it. */
function raw(request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      const [head = '', ...rest] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.on('error', reject);
    socket.end(request);
  });
}

async function fetched(path: string, init?: RequestInit) {
  const response = await fetch(`${server.url}${path}`, init);
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

describe('the local server while it starts', () => {
  it('answers 503 upstream_unavailable with Retry-After, in the envelope, with the request id and the security headers', async () => {
    // Act
    const response = await fetched('/api/v1/releases');

    // Assess
    expect(response.status).toBe(503);
    expect(JSON.parse(response.body)).toEqual({
      ...expectedEnvelope(server.url, 503, 'upstream_unavailable'),
      hint: 'The server is starting; retry in a moment.',
    });
    expect(response.headers['retry-after']).toBe('1');
    expectAlwaysOn(response.headers);
  });

  it('answers what the HTTP parser refuses with the envelope, the request id and the security headers, then closes', async () => {
    // Act
    const response = await raw(`GET /llms.txt?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);

    // Assess
    expect(response.status).toBe(431);
    expect(JSON.parse(response.body)).toEqual({ ...expectedEnvelope(server.url, 431, 'invalid_request'), error: 'Request headers too large' });
    expect(response.headers.connection).toBe('close');
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(response.body)));
    expectAlwaysOn(response.headers);
    expect(captured.lines.find((line) => line.msg === 'request')).toMatchObject({ method: 'GET', path: '/llms.txt', status: 431, code: 'invalid_request' });
  });

  it('answers a HEAD the parser refuses with no body and the length its GET would have', async () => {
    const response = await raw(`HEAD /llms.txt?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);

    expect(response.status).toBe(431);
    expect(response.body).toBe('');
    expect(Number(response.headers['content-length'])).toBeGreaterThan(100);
    expect(response.headers['x-request-id']).toMatch(UUID);
  });
});

describe('the local server serving', () => {
  beforeAll(() => {
    const fail = async () => {
      throw new Error('the handler module is broken');
    };
    server.serve({ routes: new Map(), fallback: fail }, { streaming: false });
  });

  it('answers a body over the Lambda payload limit with 413 and the limit, the request id and the security headers', async () => {
    // Act
    const response = await fetched('/llms.txt', { method: 'POST', body: Buffer.alloc(MAX_REQUEST_BYTES + 1) });

    // Assess
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ ...expectedEnvelope(server.url, 413, 'invalid_request'), limit: MAX_REQUEST_BYTES });
    expectAlwaysOn(response.headers);
  });

  it('answers a dispatch that fails with 500 internal_error, its error logged once under the request id', async () => {
    // Act
    const response = await fetched('/nope');

    // Assess
    expect(response.status).toBe(500);
    expect(JSON.parse(response.body)).toEqual(expectedEnvelope(server.url, 500, 'internal_error'));
    expectAlwaysOn(response.headers);
    expect(captured.lines.filter((line) => line.level === 'error' || line.level === 'warn')).toEqual([
      expect.objectContaining({
        msg: 'request failed',
        requestId: response.headers['x-request-id'],
        status: 500,
        error: expect.objectContaining({ name: 'Error', message: 'the handler module is broken' }),
      }),
    ]);
  });
});
