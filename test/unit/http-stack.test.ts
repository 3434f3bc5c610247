import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateLimitedError } from '#shared/errors.ts';
import { reply } from '#shared/http/reply.ts';
import { route } from '#shared/http/route.ts';
import type { RouteDef } from '#shared/route-types.ts';
import { setLogSink } from '#shared/log.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { testRoute } from '../support/routes.ts';

const Body = v.strictObject({
  url: v.pipe(v.string(), v.url()),
  deviceType: v.optional(v.picklist(['desktop', 'mobile']), 'desktop'),
  tags: v.optional(v.array(v.string())),
});

const base: RouteDef = testRoute({
  method: 'POST',
  path: '/api/things',
  body: { contentType: 'application/json', schema: Body, maxBytes: 1024 },
  query: v.object({ limit: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be an integer'))) }),
  errors: [400],
});

const echo = route({ ...base, operationId: 'echo' }, async ({ body, query }) => ({ body, query }));
const post = (options: Partial<Parameters<typeof apiEvent>[0]> = {}) => echo(apiEvent({ method: 'POST', path: '/api/things', ...options }), lambdaContext());

let lines: string[];
let restore: ReturnType<typeof setLogSink>;
beforeEach(() => {
  lines = [];
  restore = setLogSink((line) => lines.push(line));
  process.env.LOG_LEVEL = 'info';
});
afterEach(() => {
  setLogSink(restore);
  process.env.LOG_LEVEL = 'silent';
});

function envelopeOf(result: Awaited<ReturnType<typeof echo>>) {
  return JSON.parse(result.body ?? '');
}

describe('route handler: request problems', () => {
  it('passes validated input with defaults applied to the function', async () => {
    const result = await post({ body: { url: 'https://example.com' }, query: { limit: '5' } });
    expect(result.statusCode).toBe(200);
    expect(envelopeOf(result)).toEqual({ body: { url: 'https://example.com', deviceType: 'desktop' }, query: { limit: '5' } });
  });

  it.each([
    ['malformed JSON', { body: '{"url":', headers: { 'content-type': 'application/json' } }, 'invalid_request', /not valid JSON/],
    [
      'a wrong content type',
      { body: 'url=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      'invalid_request',
      /Content-Type: application\/json/,
    ],
    ['no body', {}, 'invalid_request', /JSON body/],
    ['a JSON array', { body: [] }, 'invalid_request', /JSON object/],
    ['a missing field', { body: { deviceType: 'mobile' } }, 'invalid_request', /^url is required/],
    ['an extra field', { body: { url: 'https://example.com', extra: 1 } }, 'invalid_request', /Remove extra/],
    ['a wrongly typed item', { body: { url: 'https://example.com', tags: [1] } }, 'invalid_request', /^tags\[0\]/],
    ['a malformed URL', { body: { url: 'not a url' } }, 'invalid_url', /^url must be an absolute http/],
    [
      'a value outside the enum',
      { body: { url: 'https://example.com', deviceType: 'tablet' } },
      'unsupported_value',
      /deviceType must be one of: desktop, mobile/,
    ],
    ['a bad query parameter', { body: { url: 'https://example.com' }, query: { limit: 'ten' } }, 'invalid_request', /^query parameter limit/],
  ])('answers %s with 400 and a hint naming the problem', async (_case, options, code, hint) => {
    const result = await post(options as never);
    const body = envelopeOf(result);
    expect(result.statusCode).toBe(400);
    expect(body).toEqual({
      error: expect.any(String),
      code,
      message: body.error,
      hint: expect.stringMatching(hint),
      status: 400,
      documentation: `http://easel.test/docs/errors#${code}`,
    });
  });

  it('answers a body over the route limit with the 413 envelope', async () => {
    const result = await post({ body: { url: `https://example.com/${'a'.repeat(2000)}` } });
    expect(result.statusCode).toBe(413);
    expect(envelopeOf(result)).toMatchObject({ code: 'invalid_request', status: 413, limit: 1024 });
  });

  it('reads a base64-encoded JSON body as API Gateway may deliver it', async () => {
    const event = apiEvent({ method: 'POST', path: '/api/things', headers: { 'content-type': 'application/json' } });
    event.body = Buffer.from(JSON.stringify({ url: 'https://example.com' })).toString('base64');
    event.isBase64Encoded = true;
    const result = await echo(event, lambdaContext());
    expect(result.statusCode).toBe(200);
  });
});

describe('route handler: errors', () => {
  it('turns an unknown error into a generic 500 internal_error and logs the cause once', async () => {
    const failing = route({ ...base, operationId: 'boom' }, async () => {
      throw new Error('database password is hunter2');
    });
    const result = await failing(apiEvent({ method: 'POST', path: '/api/things', body: { url: 'https://example.com' } }), lambdaContext());
    const body = envelopeOf(result);
    expect(result.statusCode).toBe(500);
    expect(body).toMatchObject({ code: 'internal_error', status: 500, error: 'Internal server error' });
    expect(result.body).not.toContain('hunter2');
    const errors = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: 'request failed', status: 500, error: { message: 'database password is hunter2' } });
  });

  it('adds the extended fields and headers of a typed error', async () => {
    const limited = route({ ...base, operationId: 'limited' }, async () => {
      throw new RateLimitedError({ limit: 20, windowSeconds: 60, retryAfter: 12, headers: { 'X-RateLimit-Limit': '20' } });
    });
    const result = await limited(apiEvent({ method: 'POST', path: '/api/things', body: { url: 'https://example.com' } }), lambdaContext());
    expect(result.statusCode).toBe(429);
    expect(result.headers).toMatchObject({ 'Retry-After': '12', 'X-RateLimit-Limit': '20' });
    expect(envelopeOf(result)).toMatchObject({ code: 'rate_limited', retryAfter: 12, hint: expect.stringContaining('12 s') });
  });

  it.each([
    [[400, 503], 503, 'upstream_unavailable'],
    [[400], 500, 'internal_error'],
  ])('answers a function still running at the deadline, on a route whose errors are %j, with %i %s', async (errors, status, code) => {
    const slow = route({ ...base, operationId: 'slow', errors }, () => new Promise((resolve) => setTimeout(resolve, 5_000)));
    const result = await slow(
      apiEvent({ method: 'POST', path: '/api/things', body: { url: 'https://example.com' } }),
      lambdaContext({ getRemainingTimeInMillis: () => 400 }),
    );
    expect(result.statusCode).toBe(status);
    expect(envelopeOf(result)).toMatchObject({ code, hint: 'The request took longer than this route allows; retry later.' });
  });
});

describe('route handler: headers', () => {
  it('sends HSTS only over https', async () => {
    const https = await post({ body: { url: 'https://example.com' }, headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers?.['Strict-Transport-Security']).toBe('max-age=63072000; includeSubDomains');
    const http = await post({ body: { url: 'https://example.com' } });
    expect(http.headers?.['Strict-Transport-Security']).toBeUndefined();
  });

  it('gives HTML a CSP that forbids scripts and framing', async () => {
    const page = route({ ...base, method: 'GET', body: undefined, operationId: 'page' }, async () => reply.text('<h1>hi</h1>', 'text/html; charset=utf-8'));
    const result = await page(apiEvent({ path: '/api/things' }), lambdaContext());
    expect(result.headers?.['Content-Security-Policy']).toContain("default-src 'none'");
    expect(result.headers?.['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(result.headers?.['X-Content-Type-Options']).toBe('nosniff');
  });

  it('allows any origin without credentials on a public route', async () => {
    const result = await post({ body: { url: 'https://example.com' }, headers: { origin: 'https://evil.example' } });
    expect(result.headers?.['Access-Control-Allow-Origin']).toBe('*');
    expect(result.headers?.['Access-Control-Allow-Credentials']).toBeUndefined();
  });

  it.each([
    ['https://editor.easel.test', 'https://editor.easel.test', 'true'],
    ['https://evil.example', undefined, undefined],
  ])('on an editor route, answers origin %s with allow-origin %s', async (origin, allowed, credentials) => {
    const editor = route({ ...base, cors: 'editor', operationId: 'editor' }, async () => ({ ok: true }));
    const result = await editor(apiEvent({ method: 'POST', path: '/api/things', body: { url: 'https://example.com' }, headers: { origin } }), lambdaContext());
    expect(result.headers?.['Access-Control-Allow-Origin']).toBe(allowed);
    expect(result.headers?.['Access-Control-Allow-Credentials']).toBe(credentials);
    expect(result.headers?.Vary).toBe('Origin');
  });
});

describe('route handler: logs', () => {
  it('writes one JSON line per request with id, route, status and latency, and no credentials', async () => {
    await post({
      body: { url: 'https://example.com' },
      headers: { cookie: 'easel.session_token=supersecretsession', 'x-api-key': 'easel_sk_supersecretkey' },
    });
    // Beside it, the request's metric line (shared/metrics.ts).
    const [logLine, ...others] = lines.filter((line) => !line.includes('"_aws"'));
    expect(others).toEqual([]);
    expect(JSON.parse(logLine!)).toMatchObject({
      level: 'info',
      msg: 'request',
      requestId: expect.any(String),
      route: 'POST /api/things',
      status: 200,
      latencyMs: expect.any(Number),
    });
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line._aws)).toEqual([
      expect.objectContaining({ RouteLatency: expect.any(Number), requestId: JSON.parse(logLine!).requestId, status: 200 }),
    ]);
    expect(lines.join('\n')).not.toMatch(/supersecret/);
  });
});
