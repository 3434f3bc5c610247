import * as v from 'valibot';
import { BatchGetCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authenticate } from '#shared/wiring/auth.ts';
import { multipartBody } from '#shared/http/multipart.ts';
import { perClientRateLimit } from '#shared/http/rate-limit.ts';
import { route } from '#shared/http/route.ts';
import type { RateLimiter } from '#shared/rate-limiter.ts';
import type { RouteDef } from '#shared/route-types.ts';
import { entitlementExtension } from '#shared/identity/plans.ts';
import type { Entitlement } from '#shared/identity/plans.ts';
import { generateApiKey, generateSessionToken, hashSecret, newId } from '#shared/identity/credentials.ts';
import { keys } from '#shared/store/keys.ts';
import { useLogLines } from '../support/log-lines.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { testRoute } from '../support/routes.ts';
import { mockDynamo } from '../support/mock-dynamo.ts';

const ddb = mockDynamo();
afterAll(() => ddb.restore());

const EDITOR = 'https://editor.easel.test';
const row = (overrides: Partial<RouteDef>): RouteDef =>
  testRoute({
    path: '/api/v1/probe',
    auth: 'session',
    cors: 'editor',
    access: { tables: { workspace: ['GetItem', 'BatchGetItem', 'Query'] } },
    errors: [401, 403, 503],
    ...overrides,
  });

// Each handler returns the principal it was given, so a test sees what the middleware resolved.
const echo = async ({ principal }: { principal: unknown }) => ({ principal });
const shell = route(row({ operationId: 'probeShell' }), echo, { authenticate });
const shellWithPermission = route(row({ operationId: 'probeMembers', permission: 'member:read' }), echo, { authenticate });
const workspace = route(
  row({
    operationId: 'probeWorkspace',
    method: 'POST',
    auth: 'apiKey',
    permission: 'asset:write',
    access: { tables: { workspace: ['GetItem', 'BatchGetItem'] }, apiKeyStamp: true },
    body: { contentType: 'application/json', schema: v.strictObject({ n: v.number() }), maxBytes: 1024 },
  }),
  echo,
  { authenticate },
);
const deletion = route(
  row({
    operationId: 'probeDelete',
    method: 'DELETE',
    auth: 'apiKey',
    permission: 'asset:write',
    access: { tables: { workspace: ['GetItem', 'BatchGetItem'] }, apiKeyStamp: true },
    extensions: entitlementExtension('asset:delete'),
  }),
  echo,
  { authenticate },
);

type Handler = typeof shell;
async function call(handler: Handler, headers: Record<string, string> = {}, body: unknown = { n: 1 }) {
  const result = await handler(apiEvent({ method: 'POST', path: '/api/v1/probe', headers: { origin: EDITOR, ...headers }, body }), lambdaContext());
  return { ...result, json: JSON.parse(result.body ?? 'null') };
}

const envelope = (status: number, code: string) => expectedEnvelope('http://easel.test', status, code);

/** Puts a key in the mocked table and returns the secret. */
function storedKey(options: { scopes?: string[]; entitlement?: Entitlement; revokedAt?: string } = {}): string {
  const key = generateApiKey();
  const hash = hashSecret(key);
  ddb.on(GetCommand, { Key: keys.apiKey(hash) }).resolves({
    Item: {
      ...keys.apiKey(hash),
      keyId: newId('key'),
      keyHash: hash,
      organizationId: 'org_a',
      workspaceId: 'ws_a',
      name: 'probe',
      scopes: options.scopes ?? ['asset:write'],
      entitlement: options.entitlement ?? { plan: 'pro', status: 'active', features: [] },
      createdBy: 'test',
      createdAt: '2026-01-01T00:00:00.000Z',
      ...(options.revokedAt ? { revokedAt: options.revokedAt } : {}),
    },
  });
  return key;
}

/** Puts a session, its user's membership and the organization in the mocked table; returns the cookie. */
function storedSession(role: 'owner' | 'admin' | 'member'): string {
  const token = generateSessionToken();
  const hash = hashSecret(token);
  // A fresh organization per session keeps the container's member cache out of the way.
  const organizationId = newId('org');
  ddb.on(GetCommand, { Key: keys.session(hash) }).resolves({
    Item: {
      ...keys.session(hash),
      sessionId: 'ses_1',
      tokenHash: hash,
      userId: 'usr_1',
      activeOrganizationId: organizationId,
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: 4_000_000_000,
      origin: 'test',
    },
  });
  ddb.on(BatchGetCommand).callsFake((input: { RequestItems: Record<string, { Keys: { pk: string; sk: string }[] }> }) => {
    const [table, request] = Object.entries(input.RequestItems)[0]!;
    if (!request.Keys.some((key) => key.pk === `ORG#${organizationId}`)) return { Responses: { [table]: [] } };
    return {
      Responses: {
        [table]: [
          {
            ...keys.organization(organizationId),
            organizationId,
            name: 'A',
            workspaceId: 'ws_a',
            entitlement: { plan: 'free', status: 'active', features: [] },
            deletionState: 'active',
            createdAt: '2026-01-01T00:00:00.000Z',
          },
          { ...keys.membership(organizationId, 'usr_1'), organizationId, workspaceId: 'ws_a', userId: 'usr_1', role, createdAt: '2026-01-01T00:00:00.000Z' },
        ],
      },
    };
  });
  return `easel.session_token=${token}`;
}

beforeEach(() => {
  ddb.reset();
  // What DynamoDB answers for a key it does not hold; the stored* helpers add specific items.
  ddb.on(GetCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
});

describe('auth middleware: session-only (shell) routes', () => {
  it('answers a valid session with 200 and the session principal, with editor CORS', async () => {
    const result = await call(shell, { cookie: storedSession('member') });

    expect(result.statusCode).toBe(200);
    expect(result.json.principal).toMatchObject({ kind: 'session', userId: 'usr_1', activeOrganizationId: expect.stringMatching(/^org_/) });
    expect(result.headers).toMatchObject({ 'Access-Control-Allow-Origin': EDITOR, 'Access-Control-Allow-Credentials': 'true' });
  });

  it('refuses a request without a session with the 401 envelope', async () => {
    const result = await call(shell);

    expect(result.statusCode).toBe(401);
    expect(result.json).toEqual(envelope(401, 'unauthorized'));
    expect(result.json.hint).toContain('easel.session_token');
  });

  it('refuses any X-API-Key with 403, even alongside a valid session, without reading the table', async () => {
    const result = await call(shell, { cookie: storedSession('owner'), 'x-api-key': storedKey() });

    expect(result.statusCode).toBe(403);
    expect(result.json).toEqual(envelope(403, 'forbidden'));
    expect(result.json.hint).toContain('remove the X-API-Key header');
    expect(ddb.calls()).toHaveLength(0);
  });

  it.each([
    ['an empty X-API-Key', '', false],
    ['a whitespace-only X-API-Key', ' \t ', false],
    ['an empty X-API-Key beside a valid session', '', true],
    ['a whitespace-only X-API-Key beside a valid session', ' \t ', true],
  ])('refuses %s with 403 like any other key, without reading the table', async (_case, key, withSession) => {
    const result = await call(shell, { ...(withSession ? { cookie: storedSession('owner') } : {}), 'x-api-key': key });

    expect(result.statusCode).toBe(403);
    expect(result.json).toEqual({ ...envelope(403, 'forbidden'), hint: expect.stringContaining('remove the X-API-Key header') });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('refuses a member whose role lacks the permission with 403', async () => {
    const result = await call(shellWithPermission, { cookie: storedSession('member') });

    expect(result.statusCode).toBe(403);
    expect(result.json).toEqual(envelope(403, 'forbidden'));
    expect(result.json.hint).toContain('member:read');
  });

  it('lets a role with the permission through as a member principal', async () => {
    const result = await call(shellWithPermission, { cookie: storedSession('admin') });

    expect(result.statusCode).toBe(200);
    expect(result.json.principal).toMatchObject({ kind: 'session', role: 'admin', workspaceId: 'ws_a', plan: 'free' });
  });

  it('answers 401 for a session the table does not know (or that has expired)', async () => {
    const result = await call(shell, { cookie: `easel.session_token=${generateSessionToken()}` });

    expect(result.statusCode).toBe(401);
    expect(result.json).toEqual(envelope(401, 'unauthorized'));
  });
});

describe('auth middleware: workspace routes', () => {
  it('lets a key with the scope through as an API-key principal', async () => {
    const result = await call(workspace, { 'x-api-key': storedKey() });

    expect(result.statusCode).toBe(200);
    expect(result.json.principal).toMatchObject({ kind: 'apiKey', organizationId: 'org_a', workspaceId: 'ws_a', plan: 'pro', permissions: ['asset:write'] });
  });

  it('answers 401 without credentials, before validating the body', async () => {
    const result = await call(workspace, {}, { unexpected: true });

    expect(result.statusCode).toBe(401);
    expect(result.json).toEqual(envelope(401, 'unauthorized'));
  });

  it('grants nothing for an Authorization header, even carrying a valid key', async () => {
    const result = await call(workspace, { authorization: `Bearer ${storedKey()}` });

    expect(result.statusCode).toBe(401);
  });

  it.each([
    ['an unknown key', () => generateApiKey()],
    ['a revoked key', () => storedKey({ revokedAt: '2026-01-02T00:00:00.000Z' })],
    ['a malformed key', () => 'not-a-key'],
  ])('answers 401 for %s', async (_case, key) => {
    const result = await call(workspace, { 'x-api-key': key() });

    expect(result.statusCode).toBe(401);
    expect(result.json).toEqual(envelope(401, 'unauthorized'));
  });

  it.each([
    ['an empty X-API-Key', '', false],
    ['a whitespace-only X-API-Key', ' \t ', false],
    ['an empty X-API-Key beside a valid session', '', true],
    ['a whitespace-only X-API-Key beside a valid session', ' \t ', true],
  ])('answers %s with the 401 of an invalid key, never falling back to the cookie', async (_case, key, withSession) => {
    const wrongKey = await call(workspace, { 'x-api-key': 'not-a-key' });

    const result = await call(workspace, { ...(withSession ? { cookie: storedSession('member') } : {}), 'x-api-key': key });

    expect(result.statusCode).toBe(401);
    expect(result.json).toEqual({ ...envelope(401, 'unauthorized'), hint: wrongKey.json.hint });
    expect(result.json.hint).toContain('The API key is not valid');
    // The session in the table would admit the request: it is never looked up.
    expect(ddb.calls()).toHaveLength(0);
  });

  it('answers 403 for a key without the scope', async () => {
    const result = await call(workspace, { 'x-api-key': storedKey({ scopes: ['artifact:read'] }) });

    expect(result.statusCode).toBe(403);
    expect(result.json).toEqual(envelope(403, 'forbidden'));
    expect(result.json.hint).toContain('asset:write');
  });

  it('answers a plan without the feature with 403 workspace_feature_not_entitled and the plans', async () => {
    const result = await call(deletion, { 'x-api-key': storedKey({ entitlement: { plan: 'free', status: 'active', features: [] } }) });

    expect(result.statusCode).toBe(403);
    expect(result.json).toEqual({ ...envelope(403, 'workspace_feature_not_entitled'), currentPlan: 'free', requiredPlan: 'pro', feature: 'asset:delete' });
  });

  it('lets a plan with the feature through', async () => {
    const result = await call(deletion, { 'x-api-key': storedKey({ entitlement: { plan: 'business', status: 'active', features: [] } }) });

    expect(result.statusCode).toBe(200);
  });

  it('accepts a session whose role grants the permission', async () => {
    const result = await call(workspace, { cookie: storedSession('member') });

    expect(result.statusCode).toBe(200);
    expect(result.json.principal).toMatchObject({ kind: 'session', role: 'member', permissions: expect.arrayContaining(['asset:write']) });
  });

  it('prefers the key when a browser sends a cookie along', async () => {
    const result = await call(workspace, { cookie: storedSession('member'), 'x-api-key': storedKey() });

    expect(result.json.principal.kind).toBe('apiKey');
  });
});

describe('auth middleware: the reason of a refusal, in the request log line', () => {
  const captured = useLogLines();

  it.each([
    ['a key without the scope', () => ({ 'x-api-key': storedKey({ scopes: ['artifact:read'] }) }), 403, /^key key_\w+ lacks asset:write$/],
    [
      'a cross-site request with a session',
      () => ({ cookie: storedSession('owner'), origin: 'https://evil.example' }),
      403,
      /^cross-site POST from https:\/\/evil\.example$/,
    ],
    ['no credentials', () => ({}), 401, /^no API key or session cookie$/],
    ['an unknown key', () => ({ 'x-api-key': generateApiKey() }), 401, /^unknown API key$/],
  ])('logs why it refused %s, without the credential', async (_case, headers, status, reason) => {
    // Prepare
    const sent = headers();

    // Act
    const result = await call(workspace, sent);

    // Assess
    expect(result.statusCode).toBe(status);
    const line = captured.lines.find((entry) => entry.msg === 'request');
    expect(line).toMatchObject({ level: 'info', status, code: result.json.code, reason: expect.stringMatching(reason) });
    const secrets = [(sent as Record<string, string>)['x-api-key'], (sent as Record<string, string>).cookie?.split('=')[1]].filter(Boolean);
    for (const secret of secrets) expect(JSON.stringify(captured.lines)).not.toContain(secret);
  });
});

describe('auth middleware: dependency down', () => {
  const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4567'), { code: 'ECONNREFUSED' });

  it('answers 503 upstream_unavailable when the table cannot be reached for a key', async () => {
    ddb.on(GetCommand).rejects(outage);

    const result = await call(workspace, { 'x-api-key': generateApiKey() });

    expect(result.statusCode).toBe(503);
    expect(result.json).toEqual(envelope(503, 'upstream_unavailable'));
  });

  it('answers 503 upstream_unavailable when the table throttles a session lookup', async () => {
    ddb.on(GetCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $fault: 'client' }));

    const result = await call(shell, { cookie: `easel.session_token=${generateSessionToken()}` });

    expect(result.statusCode).toBe(503);
    expect(result.json).toEqual(envelope(503, 'upstream_unavailable'));
  });

  it('answers 503 when the member lookup fails', async () => {
    const cookie = storedSession('admin');
    ddb.on(BatchGetCommand).rejects(Object.assign(new Error('Service unavailable'), { name: 'ServiceUnavailable', $fault: 'server' }));

    const result = await call(shellWithPermission, { cookie });

    expect(result.statusCode).toBe(503);
    expect(result.json).toEqual(envelope(503, 'upstream_unavailable'));
  });
});

describe('route(): features a row combines', () => {
  // Rows typed with their literal features, as the route table's are: the compiler asks for each middleware.
  const upload = {
    ...row({
      operationId: 'probeUpload',
      method: 'POST',
      permission: 'asset:write',
      access: { tables: { workspace: ['GetItem', 'BatchGetItem'] }, apiKeyStamp: true },
    }),
    auth: 'apiKey',
    body: { contentType: 'multipart/form-data', schema: v.strictObject({ note: v.string() }), maxBytes: 2048 },
  } as const;
  const limited = { ...row({ operationId: 'probeLimited' }), auth: 'session', extensions: { 'x-easel-rate-limit': { limit: 5, windowSeconds: 60 } } } as const;

  const BOUNDARY = 'probe-boundary';
  const form = (note: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\n${note}\r\n--${BOUNDARY}--\r\n`;
  const send = async (handler: Handler, headers: Record<string, string>, body?: string) => {
    const result = await handler(apiEvent({ method: 'POST', path: '/api/v1/probe', headers: { origin: EDITOR, ...headers }, body }), lambdaContext());
    return { ...result, json: JSON.parse(result.body ?? 'null') };
  };
  const multipart = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

  const consume = vi.fn<RateLimiter['consume']>();
  const allow = { allowed: true, limit: 5, remaining: 4, resetAt: 1_795_000_020_000, retryAfterSeconds: 0, counter: 'c' };
  const RATE = { 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '4', 'X-RateLimit-Reset': '1795000020000' };

  const uploadHandler = route(upload, async ({ body, principal }) => ({ note: body.note, kind: principal.kind }), { authenticate, multipartBody });
  const limitedHandler = route(limited, async ({ principal }) => ({ userId: principal.userId }), {
    rateLimit: (options) => perClientRateLimit({ ...options, limiter: () => ({ consume }) }),
    authenticate,
  });

  beforeEach(() => {
    consume.mockReset();
    consume.mockResolvedValue(allow);
  });

  it('reads the form of a request whose API key holds the scope', async () => {
    const result = await send(uploadHandler, { 'x-api-key': storedKey(), ...multipart }, form('hello'));

    expect(result.statusCode).toBe(200);
    expect(result.json).toEqual({ note: 'hello', kind: 'apiKey' });
  });

  it('answers 401 without a key before reading the form, even a malformed one', async () => {
    const result = await send(uploadHandler, multipart, 'not a form');

    expect(result.statusCode).toBe(401);
    expect(result.json).toEqual(envelope(401, 'unauthorized'));
  });

  it('answers 400 for a malformed form once the key is accepted', async () => {
    const result = await send(uploadHandler, { 'x-api-key': storedKey(), ...multipart }, 'not a form');

    expect(result.statusCode).toBe(400);
    expect(result.json).toEqual({ ...envelope(400, 'invalid_request'), hint: expect.stringContaining('not valid multipart/form-data') });
  });

  it('counts a signed-in request and answers it with the X-RateLimit-* headers', async () => {
    const result = await send(limitedHandler, { cookie: storedSession('member') });

    expect(result.statusCode).toBe(200);
    expect(result.json).toEqual({ userId: 'usr_1' });
    expect(result.headers).toMatchObject(RATE);
    expect(consume).toHaveBeenCalledWith({ key: 'probeLimited#ip#203.0.113.10', limit: 5, windowSeconds: 60, now: expect.any(Number) });
  });

  it('counts a request without a session too, and refuses it with 401 and the X-RateLimit-* headers', async () => {
    const result = await send(limitedHandler, {});

    expect(result.statusCode).toBe(401);
    expect(result.json).toEqual(envelope(401, 'unauthorized'));
    expect(result.headers).toMatchObject(RATE);
    expect(consume).toHaveBeenCalledTimes(1);
  });

  it('refuses a request over the limit with 429 before reading the session', async () => {
    consume.mockResolvedValue({ ...allow, allowed: false, remaining: 0, retryAfterSeconds: 42 });

    const result = await send(limitedHandler, { cookie: storedSession('member') });

    expect(result.statusCode).toBe(429);
    expect(result.json).toEqual({ ...envelope(429, 'rate_limited'), retryAfter: 42, hint: expect.stringContaining('the limit is 5 requests per 60 s') });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('refuses to build a handler that passes a middleware its row does not declare', () => {
    expect(() => route(row({ operationId: 'probePlain' }), async () => ({}), { authenticate, multipartBody })).toThrow(/declares no multipartBody: remove it/);
  });
});

// A row's handler that leaves out the middleware of one of its features does not compile.
const formRow = { ...row({}), auth: 'apiKey', body: { contentType: 'multipart/form-data', schema: v.unknown(), maxBytes: 1 } } as const;
// @ts-expect-error the row takes multipart/form-data: its handler passes multipartBody too
export const formWithoutParser = () => route(formRow, async () => ({}), { authenticate });
