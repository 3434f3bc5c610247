import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handler as fallback } from '#functions/fallback/handle-unmatched.ts';
import { reply } from '#shared/http/reply.ts';
import { route } from '#shared/http/route.ts';
import { fromTrustedSite } from '#shared/http/origin-check.ts';
import { log, setLogSink } from '#shared/log.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { testRoute } from '../support/routes.ts';

const page = route(testRoute({ method: 'GET', path: '/api/page', operationId: 'page' }), async () => {
  log.info('inside the function');
  return reply.text('hello', 'text/plain; charset=utf-8');
});

let lines: Record<string, unknown>[];
let restore: ReturnType<typeof setLogSink>;
beforeEach(() => {
  lines = [];
  restore = setLogSink((line) => lines.push(JSON.parse(line)));
  process.env.LOG_LEVEL = 'info';
});
afterEach(() => {
  setLogSink(restore);
  process.env.LOG_LEVEL = 'silent';
  delete process.env._X_AMZN_TRACE_ID;
});

describe('always-on middleware', () => {
  it.each([
    ['a route', () => page(apiEvent({ path: '/api/page' }), lambdaContext())],
    ['the fallback', () => fallback(apiEvent({ path: '/nowhere' }), lambdaContext())],
    ['the fallback 405', () => fallback(apiEvent({ method: 'DELETE', path: '/api/screenshot' }), lambdaContext())],
  ])('gives %s the request id, security and CORS headers', async (_case, call) => {
    const result = await call();

    expect(result.headers).toMatchObject({
      'X-Request-Id': expect.any(String),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': '*',
    });
  });

  it("uses API Gateway's request id, not Lambda's, for X-Request-Id and every log line", async () => {
    const event = apiEvent({ path: '/api/page' });
    const context = lambdaContext({ functionVersion: '7' });
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';

    const result = await page(event, context);

    expect(result.headers?.['X-Request-Id']).toBe(event.requestContext.requestId);
    expect(result.headers?.['X-Request-Id']).not.toBe(context.awsRequestId);
    // The two log lines and the request's metric line (shared/metrics.ts), which carries the same fields.
    expect(lines.map((line) => line.msg ?? (line._aws ? 'metrics' : undefined))).toEqual(['inside the function', 'request', 'metrics']);
    for (const line of lines) {
      expect(line).toMatchObject({ requestId: event.requestContext.requestId, functionVersion: '7', traceId: '1-5759e988-bd862e3fe1be46a994272793' });
    }
  });

  it('marks only the first invocation of a handler as a cold start', async () => {
    const fresh = route(testRoute({ method: 'GET', path: '/api/fresh', operationId: 'fresh' }), async () => ({ ok: true }));

    await fresh(apiEvent({ path: '/api/fresh' }), lambdaContext());
    await fresh(apiEvent({ path: '/api/fresh' }), lambdaContext());

    expect(lines.filter((line) => !line._aws).map((line) => line.coldStart)).toEqual([true, false]);
  });

  it('answers HEAD with the headers and length of GET, and no body', async () => {
    const result = await page(apiEvent({ method: 'HEAD', path: '/api/page' }), lambdaContext());

    expect(result.body).toBe('');
    expect(result.headers).toMatchObject({ 'Content-Length': '5', 'Content-Type': 'text/plain; charset=utf-8' });
  });
});

describe('strict UTF-8 JSON bodies', () => {
  const echo = route(
    testRoute({ method: 'POST', path: '/api/echo', operationId: 'echo', body: { contentType: 'application/json', schema: v.unknown(), maxBytes: 1024 } }),
    async ({ body }) => ({ body }),
  );

  it.each([
    ['a lone continuation byte', [0x80]],
    ['a truncated two-byte sequence', [0xc3, 0x28]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['a UTF-16 surrogate encoded in UTF-8', [0xed, 0xa0, 0x80]],
  ])('answers %s in a string with 400 invalid_request', async (_case, bad) => {
    const event = apiEvent({ method: 'POST', path: '/api/echo', headers: { 'content-type': 'application/json' } });
    event.body = Buffer.concat([Buffer.from('{"a":"'), Buffer.from(bad), Buffer.from('"}')]).toString('base64');
    event.isBase64Encoded = true;

    const result = await echo(event, lambdaContext());

    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body ?? '')).toMatchObject({ code: 'invalid_request', error: 'Body is not valid UTF-8' });
  });

  it('takes valid multi-byte UTF-8 (control)', async () => {
    const event = apiEvent({ method: 'POST', path: '/api/echo', headers: { 'content-type': 'application/json' } });
    event.body = Buffer.from('{"a":"é ☃ 😀"}').toString('base64');
    event.isBase64Encoded = true;

    const result = await echo(event, lambdaContext());

    expect(JSON.parse(result.body ?? '')).toEqual({ body: { a: 'é ☃ 😀' } });
  });
});

describe('fromTrustedSite', () => {
  const event = (headers: Record<string, string>) => apiEvent({ method: 'POST', path: '/x', headers: { host: 'easel.test', ...headers } });

  it.each([
    [{ origin: 'http://easel.test' }, true],
    [{ origin: 'https://editor.easel.test' }, true],
    [{ origin: 'https://evil.example' }, false],
    [{ origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }, false],
    [{ 'sec-fetch-site': 'same-site' }, false],
    [{ 'sec-fetch-site': 'none' }, true],
    [{ referer: 'https://editor.easel.test/editor/' }, true],
    [{ referer: 'not a url' }, false],
    [{}, true],
  ])('%o → %s', (headers, trusted) => {
    expect(fromTrustedSite(event(headers))).toBe(trusted);
  });
});
