/**
 * The authorization matrix: every protected row of the route table (auth 'apiKey', 'session',
 * 'internal' or 'webhook') × every kind of credential a caller can send, each with the exact answer it must
 * get — the whole envelope for a refusal, a documented 2xx for an admission. The rows come from
 * the route table (FULL_ROUTE_LIST), so a new row joins the matrix by being added to the table.
 *
 * Over http (the local server) the session cookie is `easel.session_token`. The https rules
 * (the `__Host-` cookie decides alone; disagreeing cookies are refused) are exercised on the
 * same handler modules with https events, since API Gateway only speaks https.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHandler } from '#shared/http/handler.ts';
import type { RouteDef } from '#shared/route-types.ts';
import { ROLES, permissionsOf } from '#shared/identity/permissions.ts';
import type { Role } from '#shared/identity/permissions.ts';
import { generateApiKey, generateSessionToken } from '#shared/identity/credentials.ts';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import type { OperationId } from '#shared/routes.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { startTestRuntime } from '../support/local.ts';
import type { TestRuntime } from '../support/local.ts';
import { createFixtures, githubSignature, requestFor, send, successStatuses } from '../support/route-requests.ts';
import type { Fixtures, RouteRequest } from '../support/route-requests.ts';

type Row = RouteDef & { operationId: OperationId };
type Auth = 'apiKey' | 'session' | 'internal' | 'webhook';
type Expected = { status: number; code: string } | 'success';

// Sign-in rows take no credentials (test/integration/sign-in.test.ts covers them).
const PROTECTED = FULL_ROUTE_LIST.filter((row): row is Row & { auth: Auth } => row.auth !== 'none' && row.auth !== 'signIn');

const UNAUTHORIZED = { status: 401, code: 'unauthorized' } as const;
const FORBIDDEN = { status: 403, code: 'forbidden' } as const;
const NOT_FOUND = { status: 404, code: 'not_found' } as const;

const names = (row: Row, name: string) => row.path.includes(`{${name}}`);
/** The least privileged role lacking the row's permission, if any role lacks it. */
const roleLacking = (row: Row): Role | undefined =>
  row.permission === undefined ? undefined : [...ROLES].reverse().find((role) => !permissionsOf(role).includes(row.permission as never));
const byAuth = (answers: Record<Auth, Expected | ((row: Row) => Expected)>) => (row: Row & { auth: Auth }) => {
  const answer = answers[row.auth];
  return typeof answer === 'function' ? answer(row) : answer;
};
/**
 * Rows whose request names something of the owner's (a session, a passkey, an invitation of their
 * address, a challenge issued to them): another user's session, admitted, is refused this way.
 */
const OWNERS_ONLY: Partial<Record<OperationId, Expected>> = {
  endSession: NOT_FOUND,
  deletePasskey: NOT_FOUND,
  acceptInvitation: NOT_FOUND,
  registerPasskey: { status: 400, code: 'invalid_request' },
};
/** An answer for another user's session: the row's refusal of what is not theirs, where it would be admitted. */
const asAnotherUser = (expected: Expected, row: Row): Expected => (expected === 'success' ? (OWNERS_ONLY[row.operationId] ?? expected) : expected);
/** The path names a resource of workspace A (an asset, a release), which another workspace cannot see. */
const namesOfA = (row: Row) => names(row, 'assetId') || names(row, 'releaseId');
const cookie = (...tokens: string[]) => ({ cookie: tokens.map((token) => `easel.session_token=${token}`).join('; ') });
const keyOnly = { apiKey: UNAUTHORIZED, session: FORBIDDEN, internal: UNAUTHORIZED, webhook: UNAUTHORIZED } as const;

interface AuthCase {
  name: string;
  /** The name of a cell when the case resolves differently on some rows. */
  label?: (row: Row) => string;
  headers(fixtures: Fixtures, row: Row, request: RouteRequest): Promise<Record<string, string>> | Record<string, string>;
  expected(row: Row & { auth: Auth }): Expected;
}

const CASES: AuthCase[] = [
  { name: 'no credentials', headers: () => ({}), expected: () => UNAUTHORIZED },
  // Any X-API-Key on a shell route is refused with 403 before it is even looked at.
  { name: 'a malformed API key', headers: () => ({ 'x-api-key': 'not-a-key' }), expected: byAuth(keyOnly) },
  { name: 'an unknown API key', headers: () => ({ 'x-api-key': generateApiKey() }), expected: byAuth(keyOnly) },
  // A present X-API-Key is the credential even when empty or blank (HTTP trims the blank one to
  // empty): an invalid key on workspace rows, never a fall-back to the cookie sent along.
  { name: 'an empty API key', headers: () => ({ 'x-api-key': '' }), expected: byAuth(keyOnly) },
  { name: 'a blank API key', headers: () => ({ 'x-api-key': '   ' }), expected: byAuth(keyOnly) },
  { name: 'an empty API key beside an owner session', headers: (fx) => ({ ...cookie(fx.sessions.owner), 'x-api-key': '' }), expected: byAuth(keyOnly) },
  { name: 'a blank API key beside an owner session', headers: (fx) => ({ ...cookie(fx.sessions.owner), 'x-api-key': '   ' }), expected: byAuth(keyOnly) },
  { name: 'a revoked API key', headers: (fx) => ({ 'x-api-key': fx.a.revokedKey }), expected: byAuth(keyOnly) },
  {
    name: 'an API key without the scope',
    headers: async (fx, row) => ({ 'x-api-key': await fx.keyWithout(row.permission) }),
    expected: byAuth({ apiKey: (row) => (row.permission ? FORBIDDEN : 'success'), session: FORBIDDEN, internal: UNAUTHORIZED, webhook: UNAUTHORIZED }),
  },
  {
    name: 'an API key of another workspace',
    headers: (fx) => ({ 'x-api-key': fx.b.key }),
    // It acts in its own workspace: where the path names one of A's assets or releases, it is not there.
    expected: byAuth({ apiKey: (row) => (namesOfA(row) ? NOT_FOUND : 'success'), session: FORBIDDEN, internal: UNAUTHORIZED, webhook: UNAUTHORIZED }),
  },
  {
    name: 'a session without the permission',
    label: (row) => {
      const role = roleLacking(row);
      if (role) return `a session without the permission (${role} lacks ${row.permission})`;
      return row.permission
        ? `a session of the least privileged role (every role holds ${row.permission})`
        : 'a session of the least privileged role (no permission needed)';
    },
    headers: (fx, row) => cookie(fx.sessions[roleLacking(row) ?? 'member']),
    expected: byAuth({
      apiKey: (row) => (roleLacking(row) ? FORBIDDEN : 'success'),
      session: (row) => asAnotherUser(roleLacking(row) ? FORBIDDEN : 'success', row),
      internal: UNAUTHORIZED,
      webhook: UNAUTHORIZED,
    }),
  },
  {
    name: 'a session of a non-member',
    headers: (fx) => cookie(fx.sessions.nonMember),
    // Without a permission or an organization in the path, a shell row only needs the user.
    expected: byAuth({
      apiKey: FORBIDDEN,
      session: (row) => asAnotherUser(row.permission || names(row, 'organizationId') ? FORBIDDEN : 'success', row),
      internal: UNAUTHORIZED,
      webhook: UNAUTHORIZED,
    }),
  },
  {
    name: 'a session of another organization',
    headers: (fx) => cookie(fx.sessions.otherOrganization),
    expected: byAuth({
      apiKey: (row) => (namesOfA(row) ? NOT_FOUND : 'success'),
      session: (row) => asAnotherUser(names(row, 'organizationId') ? FORBIDDEN : 'success', row),
      internal: UNAUTHORIZED,
      webhook: UNAUTHORIZED,
    }),
  },
  { name: 'an expired session', headers: (fx) => cookie(fx.sessions.expired), expected: () => UNAUTHORIZED },
  {
    name: 'an API key on a shell route',
    headers: (fx) => ({ 'x-api-key': fx.a.key }),
    expected: byAuth({ apiKey: 'success', session: FORBIDDEN, internal: UNAUTHORIZED, webhook: UNAUTHORIZED }),
  },
  {
    name: 'the same session cookie twice',
    headers: (fx) => cookie(fx.sessions.owner, fx.sessions.owner),
    expected: byAuth({ apiKey: 'success', session: 'success', internal: UNAUTHORIZED, webhook: UNAUTHORIZED }),
  },
  { name: 'two different session cookies', headers: (fx) => cookie(fx.sessions.member, fx.sessions.owner), expected: () => UNAUTHORIZED },
  { name: 'a planted session cookie before the real one', headers: (fx) => cookie(generateSessionToken(), fx.sessions.owner), expected: () => UNAUTHORIZED },
  { name: 'a wrong internal secret', headers: () => ({ 'x-easel-internal-secret': 'x'.repeat(44) }), expected: () => UNAUTHORIZED },
  {
    name: 'the internal secret',
    headers: (fx) => ({ 'x-easel-internal-secret': fx.internalSecret }),
    expected: byAuth({ apiKey: UNAUTHORIZED, session: UNAUTHORIZED, internal: 'success', webhook: UNAUTHORIZED }),
  },
  // A webhook is signed over its body: nothing else counts there, and its signature nowhere else.
  {
    name: "a source app's signature over the body",
    headers: (fx, _row, request) => ({ 'x-hub-signature-256': githubSignature(fx.a.intake.webhookSecret, request.body) }),
    expected: byAuth({ apiKey: UNAUTHORIZED, session: UNAUTHORIZED, internal: UNAUTHORIZED, webhook: 'success' }),
  },
  {
    name: 'a signature with another secret',
    headers: (_fx, _row, request) => ({ 'x-hub-signature-256': githubSignature('not the secret', request.body) }),
    expected: () => UNAUTHORIZED,
  },
];

/** Session cookies over https, on the rows that take sessions. */
const HTTPS_CASES: { name: string; cookie(fx: Fixtures): string; expected: Expected }[] = [
  // The member's session is a real one: were it used, the rows a member may not call would answer 403.
  {
    name: '__Host- cookie with an easel.session_token planted beside it',
    cookie: (fx) => `easel.session_token=${fx.sessions.member}; __Host-easel.session_token=${fx.sessions.owner}`,
    expected: 'success',
  },
  {
    name: '__Host- cookie with a __Secure- cookie planted beside it',
    cookie: (fx) => `__Host-easel.session_token=${fx.sessions.owner}; __Secure-easel.session_token=${fx.sessions.member}`,
    expected: 'success',
  },
  { name: 'easel.session_token alone (the contract name)', cookie: (fx) => `easel.session_token=${fx.sessions.owner}`, expected: 'success' },
  { name: '__Secure-easel.session_token alone (accepted on read)', cookie: (fx) => `__Secure-easel.session_token=${fx.sessions.owner}`, expected: 'success' },
  {
    name: 'an expired __Host- cookie with a valid easel.session_token beside it',
    cookie: (fx) => `__Host-easel.session_token=${fx.sessions.expired}; easel.session_token=${fx.sessions.owner}`,
    expected: UNAUTHORIZED,
  },
  {
    name: '__Secure- and plain cookies with different tokens',
    cookie: (fx) => `__Secure-easel.session_token=${fx.sessions.owner}; easel.session_token=${fx.sessions.member}`,
    expected: UNAUTHORIZED,
  },
  {
    name: 'two __Host- cookies with different tokens',
    cookie: (fx) => `__Host-easel.session_token=${fx.sessions.owner}; __Host-easel.session_token=${fx.sessions.member}`,
    expected: UNAUTHORIZED,
  },
];

let runtime: TestRuntime;
let fixtures: Fixtures;

beforeAll(async () => {
  runtime = await startTestRuntime();
  fixtures = await createFixtures(runtime);
});

afterAll(async () => {
  fixtures?.close();
  await runtime?.dispose();
});

function assess(row: Row, expected: Expected, status: number, body: unknown): void {
  if (expected === 'success') {
    expect({ status, body }).toEqual({
      status: expect.toSatisfy((value: number) => successStatuses(row).includes(value)),
      body: expect.not.objectContaining({ code: expect.any(String) }),
    });
  } else {
    expect({ status, body }).toEqual({ status: expected.status, body: expectedEnvelope(runtime.url, expected.status, expected.code) });
  }
}

const CELLS = PROTECTED.flatMap((row) =>
  CASES.map((kase) => {
    const expected = kase.expected(row);
    const answer = expected === 'success' ? 'a documented 2xx' : `${expected.status} ${expected.code}`;
    return [`${row.method} ${row.path}`, kase.label?.(row) ?? kase.name, answer, row, kase] as const;
  }),
);

describe(`authorization matrix: ${PROTECTED.length} protected rows × ${CASES.length} kinds of credentials`, () => {
  it.each(CELLS)('answers %s with %s: %s', async (_route, _case, _answer, row, kase) => {
    // Prepare
    const request = await requestFor(runtime.url, fixtures, row);
    const headers = await kase.headers(fixtures, row, request);

    // Act
    const response = await send(runtime.url, request, headers);

    // Assess
    assess(row, kase.expected(row), response.status, response.body);
  });
});

/** The path parameters of a concrete path, as API Gateway passes them, by the row's template. */
function parametersOf(template: string, path: string): Record<string, string> {
  const values = path.split('/');
  return Object.fromEntries(
    template.split('/').flatMap((part, index) => {
      const name = /^\{(.+)\}$/.exec(part)?.[1];
      return name ? [[name, decodeURIComponent(values[index]!)]] : [];
    }),
  );
}

const SESSION_ROWS = PROTECTED.filter((row) => row.auth === 'apiKey' || row.auth === 'session');

describe(`session cookies over https: ${SESSION_ROWS.length} rows × ${HTTPS_CASES.length} cases`, () => {
  const handlers = new Map<string, Promise<HttpHandler>>();
  // The very modules the local server loaded, so they share its configuration and clients.
  const handlerOf = (row: Row) => {
    if (!handlers.has(row.handler))
      handlers.set(
        row.handler,
        import(pathToFileURL(resolve(row.handler)).href).then((module: { handler: HttpHandler }) => module.handler),
      );
    return handlers.get(row.handler)!;
  };
  const cells = SESSION_ROWS.flatMap((row) => HTTPS_CASES.map((kase) => [`${row.method} ${row.path}`, kase.name, row, kase] as const));

  it.each(cells)('answers %s with %s as the rule says', async (_route, _case, row, kase) => {
    // Prepare
    const request = await requestFor(runtime.url, fixtures, row);
    const pathParameters = parametersOf(row.path, request.path);
    const event = apiEvent({
      method: row.method,
      path: request.path,
      body: request.body,
      pathParameters,
      headers: { 'x-forwarded-proto': 'https', cookie: kase.cookie(fixtures) },
    });

    // Act
    const result = await (await handlerOf(row))(event, lambdaContext({ getRemainingTimeInMillis: () => row.timeout * 1000 }));

    // Assess
    assess(row, kase.expected, result.statusCode ?? 0, JSON.parse(result.body || 'null'));
  });
});
