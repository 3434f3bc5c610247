import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InternalError, InvalidRequestError, UpstreamUnavailableError } from '#shared/errors.ts';
import { createHttpHandler } from '#shared/http/handler.ts';
import { INTERNAL_SECRET_HEADER, internalAuth, secretMatches } from '#shared/http/internal-auth.ts';
import { perClientRateLimit, rateLimitRuleOf } from '#shared/http/rate-limit.ts';
import { route } from '#shared/http/route.ts';
import type { RouteDef } from '#shared/route-types.ts';
import type { RateLimitDecision, RateLimiter } from '#shared/rate-limiter.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { testRoute } from '../support/routes.ts';

const SECRET = process.env.INTERNAL_SECRET!;

const internalRow: RouteDef = testRoute({
  operationId: 'internalThings',
  method: 'POST',
  path: '/internal/things',
  auth: 'internal',
  tag: 'Internal',
  body: { contentType: 'application/json', schema: v.strictObject({ all: v.literal(true) }), maxBytes: 1024 },
  errors: [401],
});

const envelope = (status: number, code: string) => expectedEnvelope('http://easel.test', status, code);

describe('secretMatches', () => {
  it.each([
    ['the secret itself', SECRET, true],
    ['another secret of the same length', SECRET.replace(/.$/, '!'), false],
    ['a prefix of it', SECRET.slice(0, 10), false],
    ['a longer value starting with it', `${SECRET}x`, false],
    ['an empty value', '', false],
    ['no value', undefined, false],
  ])('answers %s with %s', (_case, presented, expected) => {
    expect(secretMatches(presented, SECRET)).toBe(expected);
  });
});

describe("route(): auth 'internal'", () => {
  const handler = route(internalRow, async ({ body }) => ({ received: body }), { internalAuth });
  const post = (headers: Record<string, string>, body: unknown = { all: true }) =>
    handler(apiEvent({ method: 'POST', path: '/internal/things', headers, body }), lambdaContext());

  it('runs the function when the request carries the secret', async () => {
    // Act
    const result = await post({ [INTERNAL_SECRET_HEADER]: SECRET });

    // Assess
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body!)).toEqual({ received: { all: true } });
  });

  it.each([
    ['no secret', {}],
    ['a wrong secret', { [INTERNAL_SECRET_HEADER]: 'x'.repeat(40) }],
    ['the secret as a bearer token', { authorization: `Bearer ${SECRET}` }],
  ])('refuses %s with 401 before validating the body', async (_case, headers) => {
    // Act: an invalid body too, which must not be what the caller learns about
    const result = await post(headers, { nope: 1 });

    // Assess
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(result.body!)).toEqual(envelope(401, 'unauthorized'));
    expect(result.body).not.toContain(SECRET);
  });

  it('refuses to build an internal route without a configured secret', () => {
    expect(() => internalAuth({ operationId: 'internalThings', source: undefined })).toThrow(/needs INTERNAL_SECRET or INTERNAL_SECRET_ARN/);
  });

  it('refuses to build an internal route whose handler passes no internalAuth', () => {
    expect(() => route(internalRow, async () => ({}))).toThrow(/auth 'internal': pass route\(…, \{ internalAuth \}\)/);
  });

  it('refuses to build a route publishing a rate limit whose handler passes no limiter', () => {
    const limited: RouteDef = { ...internalRow, auth: 'none', extensions: { 'x-easel-rate-limit': { limit: 20, windowSeconds: 60 } } };
    expect(() => route({ ...limited, operationId: 'limited' }, async () => ({}))).toThrow(/x-easel-rate-limit: pass route\(…, \{ rateLimit \}\)/);
  });

  it.each(['apiKey', 'session'] as const)('refuses to build a %s route whose handler passes no authenticate', (auth) => {
    const row: RouteDef = { ...internalRow, auth, operationId: 'x' };
    expect(() => route(row, async () => ({}))).toThrow(new RegExp(`auth '${auth}': pass route\\(…, \\{ authenticate \\}\\)`));
  });

  it('reads a Secrets Manager secret once, and answers 503 while it cannot be read', async () => {
    // Prepare: the first read fails, the next succeeds
    const read = vi.fn<(arn: string) => Promise<string>>().mockRejectedValueOnce(new Error('network down')).mockResolvedValue(SECRET);
    const middleware = internalAuth({ operationId: 'x', source: { arn: 'arn:aws:secretsmanager:us-east-1:1:secret:s' }, read });
    const handler = createHttpHandler({ operationId: 'x', routeKey: 'POST /x', cors: 'public' }, [middleware], async () => ({ ok: true }));
    const send = () => handler(apiEvent({ method: 'POST', path: '/x', headers: { [INTERNAL_SECRET_HEADER]: SECRET } }), lambdaContext());

    // Act: the cold-start fetch fails; the first request retries it; the second uses the cached value
    await new Promise((resolve) => setImmediate(resolve));
    const results = [await send(), await send()];

    // Assess
    expect(results.map((result) => result.statusCode)).toEqual([200, 200]);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('answers 503 upstream_unavailable when the secret cannot be read at all', async () => {
    // Prepare
    const middleware = internalAuth({
      operationId: 'x',
      source: { arn: 'arn:aws:secretsmanager:us-east-1:1:secret:s' },
      read: () => Promise.reject(new Error('AccessDenied')),
    });
    const handler = createHttpHandler({ operationId: 'x', routeKey: 'POST /x', cors: 'public' }, [middleware], async () => ({ ok: true }));

    // Act
    const result = await handler(apiEvent({ method: 'POST', path: '/x', headers: { [INTERNAL_SECRET_HEADER]: SECRET } }), lambdaContext());

    // Assess
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body!)).toEqual(envelope(503, 'upstream_unavailable'));
  });
});

describe('perClientRateLimit', () => {
  const rule = { limit: 20, windowSeconds: 60 };
  const decision = (over: Partial<RateLimitDecision> = {}): RateLimitDecision => ({
    allowed: true,
    limit: 20,
    remaining: 12,
    resetAt: 1_795_000_020_000,
    retryAfterSeconds: 42,
    counter: 'c',
    ...over,
  });
  const limiterOf = (consume: RateLimiter['consume']) => () => ({ consume });
  const build = (limiter: () => RateLimiter, fn: () => Promise<unknown> = async () => ({ ok: true })) =>
    createHttpHandler(
      { operationId: 'capturePage', routeKey: 'POST /api/screenshot', cors: 'public' },
      [perClientRateLimit({ operationId: 'capturePage', rule, limiter })],
      fn,
    );
  const send = (handler: ReturnType<typeof build>, headers: Record<string, string> = {}) =>
    handler(apiEvent({ method: 'POST', path: '/api/screenshot', sourceIp: '203.0.113.7', headers }), lambdaContext());
  const RATE = { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '12', 'X-RateLimit-Reset': '1795000020000' };

  afterEach(() => vi.restoreAllMocks());

  it("counts the request under API Gateway's source address, ignoring X-Forwarded-For", async () => {
    // Prepare
    const consume = vi.fn<RateLimiter['consume']>().mockResolvedValue(decision());

    // Act
    await send(build(limiterOf(consume)), { 'x-forwarded-for': '198.51.100.1' });

    // Assess
    expect(consume).toHaveBeenCalledWith({ key: 'capturePage#ip#203.0.113.7', limit: 20, windowSeconds: 60, now: expect.any(Number) });
  });

  it.each([
    ['a success', async () => ({ ok: true }), 200],
    ['a 400 the function throws', async () => Promise.reject(new InvalidRequestError('bad', 'fix it')), 400],
    ['an unexpected error', async () => Promise.reject(new Error('boom')), 500],
    ['an internal error', async () => Promise.reject(new InternalError()), 500],
  ])('puts the X-RateLimit-* headers on %s', async (_case, fn, status) => {
    // Act
    const result = await send(
      build(
        limiterOf(async () => decision()),
        fn,
      ),
    );

    // Assess
    expect(result.statusCode).toBe(status);
    expect(result.headers).toMatchObject(RATE);
  });

  it('refuses with 429, Retry-After, retryAfter and a hint stating the wait and the limit', async () => {
    // Act
    const result = await send(build(limiterOf(async () => decision({ allowed: false, remaining: 0 }))));

    // Assess
    expect(result.statusCode).toBe(429);
    expect(result.headers).toMatchObject({ ...RATE, 'X-RateLimit-Remaining': '0', 'Retry-After': '42' });
    expect(JSON.parse(result.body!)).toEqual({
      ...envelope(429, 'rate_limited'),
      retryAfter: 42,
      hint: 'Wait 42 s before retrying: the limit is 20 requests per 60 s per IP address.',
    });
  });

  it('fails closed with 503 when the count cannot be taken, still saying the limit', async () => {
    // Act: the store reports an outage as the DynamoDB store does
    const result = await send(build(limiterOf(async () => Promise.reject(new UpstreamUnavailableError('The rate-limit store is temporarily unavailable.')))));

    // Assess
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body!)).toEqual(envelope(503, 'upstream_unavailable'));
    expect(result.headers).toMatchObject({ 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': expect.stringMatching(/^\d+$/) });
  });

  it('counts per the path parameter the rule names, whatever the address, and says so when it refuses', async () => {
    // Prepare
    const consume = vi.fn<RateLimiter['consume']>().mockResolvedValue(decision({ allowed: false, remaining: 0 }));
    const handler = createHttpHandler(
      { operationId: 'takeInRelease', routeKey: 'POST /api/v1/source-apps/{sourceAppId}/intake', cors: 'public' },
      [perClientRateLimit({ operationId: 'takeInRelease', rule: { ...rule, per: 'sourceAppId' }, limiter: limiterOf(consume) })],
      async () => ({ ok: true }),
    );
    const event = (sourceAppId: string) =>
      apiEvent({ method: 'POST', path: `/api/v1/source-apps/${sourceAppId}/intake`, sourceIp: '203.0.113.7', pathParameters: { sourceAppId } });

    // Act
    const result = await handler(event('app-1'), lambdaContext());
    await handler(event('x'.repeat(65)), lambdaContext());

    // Assess
    expect(consume.mock.calls.map(([input]) => input.key)).toEqual([
      'takeInRelease#sourceAppId#app-1',
      `takeInRelease#sourceAppId#${createHash('sha256').update('x'.repeat(65)).digest('hex')}`,
    ]);
    expect(JSON.parse(result.body!).hint).toBe('Wait 42 s before retrying: the limit is 20 requests per 60 s per sourceAppId.');
  });

  it.each([
    { limit: 0, windowSeconds: 60 },
    { limit: 20 },
    'twenty',
    { limit: 20, windowSeconds: 60, burst: 5 },
    { limit: 20, windowSeconds: 60, per: 'thingId' },
  ])('refuses to build a route whose x-easel-rate-limit is %j', (value) => {
    expect(() => rateLimitRuleOf({ ...internalRow, operationId: 'x', extensions: { 'x-easel-rate-limit': value } })).toThrow(/x-easel-rate-limit/);
  });
});
