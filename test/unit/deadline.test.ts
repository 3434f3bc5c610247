/**
 * The invocation's deadline covers the whole chain: a DynamoDB that answers slowly in the auth
 * lookup and then in the Idempotency-Key claim, before the function runs, is answered with the
 * envelope at the deadline, logged and counted, while the claim is still in flight.
 */
import * as v from 'valibot';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEADLINE_RESERVE_MS } from '#shared/http/deadline.ts';
import { route } from '#shared/http/route.ts';
import { generateApiKey, hashSecret } from '#shared/identity/credentials.ts';
import { keys } from '#shared/store/keys.ts';
import { authenticate } from '#shared/wiring/auth.ts';
import { idempotency } from '#shared/wiring/idempotency.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { useLogLines } from '../support/log-lines.ts';
import { mockDynamo } from '../support/mock-dynamo.ts';
import { testRoute } from '../support/routes.ts';

const ddb = mockDynamo();
afterAll(() => ddb.restore());

/** How long the key lookup takes to answer; the invocation has this much and a second more. */
const SLOW_MS = 1_000;

const row = testRoute({
  operationId: 'probeDeadline',
  method: 'POST',
  path: '/api/v1/probe',
  auth: 'apiKey',
  permission: 'source:write',
  idempotent: true,
  timeout: 10,
  access: { tables: { workspace: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] }, apiKeyStamp: true },
  body: { contentType: 'application/json', schema: v.strictObject({ n: v.number() }), maxBytes: 1024 },
  errors: [400, 401, 403, 503],
});

let ran = false;
const handler = route(
  row,
  async () => {
    ran = true;
    return { ok: true };
  },
  { authenticate, idempotency },
);

const captured = useLogLines();
/** Lets the held claim answer once the test is over. */
let releaseClaim: () => void = () => undefined;

beforeEach(() => {
  ran = false;
});

afterEach(() => {
  releaseClaim();
});

/** A key whose lookup answers after SLOW_MS, and a claim that answers only when the test ends. */
function slowDynamo(): string {
  const key = generateApiKey();
  const hash = hashSecret(key);
  const item = {
    ...keys.apiKey(hash),
    keyId: 'key_slow',
    keyHash: hash,
    organizationId: 'org_a',
    workspaceId: 'ws_a',
    name: 'slow',
    scopes: ['source:write'],
    entitlement: { plan: 'pro', status: 'active', features: [] },
    createdBy: 'test',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUsedAt: new Date().toISOString(),
  };
  ddb.on(GetCommand, { Key: keys.apiKey(hash) }).callsFake(() => new Promise((resolve) => setTimeout(() => resolve({ Item: item }), SLOW_MS)));
  ddb.on(PutCommand).callsFake(
    () =>
      new Promise((resolve) => {
        releaseClaim = () => resolve({});
      }),
  );
  return key;
}

/** A context whose remaining time counts down from `ms`, as Lambda's does. */
function contextWith(ms: number) {
  const end = Date.now() + ms;
  return lambdaContext({ getRemainingTimeInMillis: () => end - Date.now() });
}

describe('the deadline of an invocation', () => {
  it('answers 503 upstream_unavailable with the envelope while a slow DynamoDB still holds the before-middlewares, logged and counted', async () => {
    // Prepare
    const key = slowDynamo();
    const event = apiEvent({ method: 'POST', path: '/api/v1/probe', headers: { 'x-api-key': key, 'idempotency-key': 'k-1' }, body: { n: 1 } });

    // Act: the claim never answers before the test ends, so only the deadline can answer
    const result = await handler(event, contextWith(SLOW_MS + 1_000 + DEADLINE_RESERVE_MS));

    // Assess
    expect(ran).toBe(false);
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body ?? '')).toEqual({
      ...expectedEnvelope('http://easel.test', 503, 'upstream_unavailable'),
      hint: 'The request took longer than this route allows; retry later.',
    });
    expect(result.headers).toMatchObject({ 'X-Request-Id': event.requestContext.requestId, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
    expect(captured.lines.find((line) => line.msg === 'request failed')).toMatchObject({
      level: 'error',
      operationId: 'probeDeadline',
      status: 503,
      origin: 'service',
      error: { name: 'DeadlineExceededError' },
    });
    const metrics = captured.lines.filter((line) => line._aws !== undefined);
    expect(metrics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ DeadlineExceeded: 1, Operation: 'probeDeadline' }),
        expect.objectContaining({ ServerErrors: 1, Origin: 'service', Operation: 'probeDeadline' }),
      ]),
    );
  });

  it('answers 500 internal_error at the deadline on a route whose contract lists no 503', async () => {
    // Prepare
    const key = slowDynamo();
    const noUnavailable = route({ ...row, operationId: 'probeNo503', errors: [400, 401, 403] }, async () => ({ ok: true }), { authenticate, idempotency });
    const event = apiEvent({ method: 'POST', path: '/api/v1/probe', headers: { 'x-api-key': key, 'idempotency-key': 'k-2' }, body: { n: 1 } });

    // Act
    const result = await noUnavailable(event, contextWith(SLOW_MS + 1_000 + DEADLINE_RESERVE_MS));

    // Assess
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body ?? '')).toEqual({
      ...expectedEnvelope('http://easel.test', 500, 'internal_error'),
      hint: 'The request took longer than this route allows; retry later.',
    });
  });
});
