/**
 * Bodies and requests that are malformed on purpose, sent to the local server over raw sockets
 * where a well-behaved client could not send them: each gets the envelope with 400, 408, 413 or
 * 431, and the process keeps answering afterwards.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedEnvelope } from '../support/expectations.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';

let runtime: TestRuntime;
let port: number;

beforeAll(async () => {
  runtime = await startTestRuntime({ workers: false });
  port = Number(new URL(runtime.url).port);
});

afterAll(async () => {
  await runtime?.dispose();
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes bytes to a fresh connection and reads the first response on it (or what is there when it closes). */
function raw(request: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? NaN);
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: Number.isNaN(length) ? rest.join('\r\n\r\n') : Buffer.from(rest.join('\r\n\r\n')).subarray(0, length).toString(),
      });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // Stop at the end of the first response: a keep-alive connection would otherwise stay open.
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text.slice(0, split))?.[1];
      if (split >= 0 && length !== undefined && Buffer.byteLength(text) - split - 4 >= Number(length)) {
        socket.destroy();
        finish();
      }
    });
    socket.on('end', finish);
    socket.on('error', reject);
    socket.setTimeout(20_000, () => reject(new Error('no answer')));
    socket.end(request);
  });
}

function post(path: string, contentType: string, body: string | Buffer): string | Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return Buffer.concat([
    Buffer.from(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`),
    bytes,
  ]);
}

const part = (name: string, value: string, file = false) =>
  `--XX\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="a.png"\r\nContent-Type: image/png' : ''}\r\n\r\n${value}\r\n`;
const FORM = 'multipart/form-data; boundary=XX';

async function stillAnswers(): Promise<void> {
  const response = await fetch(`${runtime.url}/llms.txt`);
  expect(response.status).toBe(200);
  await response.text();
}

describe('malformed multipart bodies on POST /api/export', () => {
  it.each([
    ['a file part the body ends inside (no closing boundary)', part('image', 'PNG', true).slice(0, -2).replace('PNG', 'unterminated')],
    ['complete parts without the closing boundary', part('image', 'PNG', true) + part('format', 'png')],
    ['a body that ends within a file part after 100 KB of it', `${part('image', 'x'.repeat(100_000), true).slice(0, 60_000)}`],
    ['parts under another boundary than the declared one', '--YY\r\nContent-Disposition: form-data; name="format"\r\n\r\npng\r\n--YY--\r\n'],
    ['a part cut in the middle of its headers', '--XX\r\nContent-Disposition: form-da'],
    ['a part without a field name', '--XX\r\nContent-Disposition: form-data\r\n\r\nx\r\n--XX--\r\n'],
    ['thousands of parts', `${Array.from({ length: 5000 }, (_, i) => part(`f${i}`, 'x')).join('')}--XX--\r\n`],
    ['thousands of file parts', `${Array.from({ length: 2000 }, (_, i) => part(`f${i}`, 'x', true)).join('')}--XX--\r\n`],
    ['a text field far over its size', `${part('format', 'p'.repeat(200_000))}--XX--\r\n`],
    ['nothing but a line break', '\r\n'],
  ])('answers %s with 400 invalid_request and stays up', async (_case, body) => {
    // Act
    const response = await raw(post('/api/export', FORM, body));

    // Assess
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual(expectedEnvelope(runtime.url, 400, 'invalid_request'));
    await stillAnswers();
  });

  it.each([
    ['no boundary', 'multipart/form-data'],
    ['an empty boundary', 'multipart/form-data; boundary='],
    ['a boundary longer than 70 characters', `multipart/form-data; boundary=${'b'.repeat(200)}`],
  ])('answers a Content-Type with %s with 400 invalid_request and stays up', async (_case, contentType) => {
    const response = await raw(post('/api/export', contentType, `${part('format', 'png')}--XX--\r\n`));

    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual(expectedEnvelope(runtime.url, 400, 'invalid_request'));
    await stillAnswers();
  });

  it('answers a file part far over the size limit with 413 and the limit, and stays up', async () => {
    const response = await raw(post('/api/export', FORM, `${part('image', 'x'.repeat(5 * 1024 * 1024), true)}--XX--\r\n`));

    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ ...expectedEnvelope(runtime.url, 413, 'invalid_request'), limit: 4 * 1024 * 1024 });
    await stillAnswers();
  });
});

describe('requests the HTTP parser refuses', () => {
  it('answers a 20 KB query string with 431 in the envelope', async () => {
    const response = await raw(`GET /llms.txt?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);

    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(response.body)).toEqual(expectedEnvelope(runtime.url, 431, 'invalid_request'));
    await stillAnswers();
  });

  it('answers a HEAD with a 20 KB query string with 431 and no body', async () => {
    const response = await fetch(`${runtime.url}/llms.txt?q=${'a'.repeat(20_000)}`, { method: 'HEAD' });

    expect(response.status).toBe(431);
    expect(await response.text()).toBe('');
    await stillAnswers();
  });

  it.each([
    ['Content-Length: 0 followed by a body', 'POST /api/export HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\nhello there\r\n\r\n'],
    ['a malformed chunk size', 'POST /api/export HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
    [
      'both Content-Length and Transfer-Encoding',
      'POST /api/export HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['a request line that is not HTTP', 'HELLO WORLD\r\n\r\n'],
    ['a header without a colon', 'GET /llms.txt HTTP/1.1\r\nHost: localhost\r\nnonsense\r\n\r\n'],
  ])('answers %s with 400 in the envelope', async (_case, request) => {
    const response = await raw(request);

    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual(expectedEnvelope(runtime.url, 400, 'invalid_request'));
    await stillAnswers();
  });
});

describe('bodies over the limit on a rate-limited route', () => {
  it.each([
    ['over the route limit', 600 * 1024],
    ["over Lambda's request limit", 7 * 1024 * 1024],
  ])('answers POST /api/screenshot with a body %s with 413 and the X-RateLimit-* headers', async (_case, size) => {
    // Prepare
    const body = JSON.stringify({ url: `https://example.com/${'a'.repeat(size)}` });

    // Act
    const response = await fetch(`${runtime.url}/api/screenshot`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

    // Assess: the route's own limit, and the headers every answer of the route carries
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ ...expectedEnvelope(runtime.url, 413, 'invalid_request'), limit: 524_288 });
    expect(response.headers.get('x-ratelimit-limit')).toBe('20');
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThan(20);
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now());
  });
});

describe('odd request targets', () => {
  it.each(['///', '//llms.txt', '//?q=1', '/llms.txt#frag'])('answers %s with the envelope or the page, and stays up', async (target) => {
    const response = await raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);

    expect([200, 404]).toContain(response.status);
    if (response.status === 404) expect(JSON.parse(response.body)).toEqual(expectedEnvelope(runtime.url, 404, 'not_found'));
    await stillAnswers();
  });
});
