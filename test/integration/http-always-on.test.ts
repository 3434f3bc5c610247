/**
 * What every route runs (shared/http/always-on.ts), through the local server: the origin check on
 * cookie-authenticated mutations, strict UTF-8 bodies, and one request id on the answer and on
 * every log line of the request.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '#shared/services/identity-admin.ts';
import { setLogSink } from '#shared/log.ts';
import { connect, type Connection } from '#infra/admin/connection.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { expectedEnvelope } from '../support/expectations.ts';

let runtime: TestRuntime;
let db: Connection;
let EDITOR = '';
const owner = { organizationId: '', cookie: '', key: '' };

beforeAll(async () => {
  runtime = await startTestRuntime({ workers: false });
  db = connect(runtime.env);
  const deps = { store: db.store };
  EDITOR = runtime.env.EDITOR_ORIGINS!.split(',')[0]!;
  await admin.createUser(deps, { email: 'owner@example.com', name: 'Owner' });
  const { organization } = await admin.createOrganization(deps, { name: 'Origins', plan: 'pro', ownerUserId: 'owner@example.com' });
  owner.organizationId = organization.organizationId;
  owner.key = (await admin.issueApiKey(deps, { organizationId: organization.organizationId, name: 'test' })).key;
  owner.cookie = `easel.session_token=${(await admin.createSession(deps, { user: 'owner@example.com', organizationId: organization.organizationId })).token}`;
});

afterAll(async () => {
  db?.close();
  await runtime?.dispose();
});

const activate = (headers: Record<string, string>) =>
  fetch(`${runtime.url}/api/v1/organizations/${owner.organizationId}/activate`, {
    method: 'POST',
    headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: 'a=1',
  });

describe('cookie-authenticated mutations from another site', () => {
  it('refuses the cross-site form POST of the issue with 403 forbidden in the envelope', async () => {
    const response = await activate({ origin: 'https://evil.example' });

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(expectedEnvelope(runtime.url, 403, 'forbidden'));
    expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each([
    ['a sibling subdomain', { origin: 'https://evil.easel.test' }],
    ['an opaque origin', { origin: 'null' }],
    ['Sec-Fetch-Site cross-site without an Origin', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site without an Origin', { 'sec-fetch-site': 'same-site' }],
    ['a Referer of another site without an Origin', { referer: 'https://evil.example/form.html' }],
  ])('refuses %s', async (_case, headers) => {
    const response = await activate(headers);

    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe('forbidden');
  });

  it.each([
    ['the editor origin', () => ({ origin: EDITOR, 'sec-fetch-site': 'cross-site' })],
    ['the API origin', () => ({ origin: runtime.url, 'sec-fetch-site': 'same-origin' })],
    ['Sec-Fetch-Site same-origin alone', () => ({ 'sec-fetch-site': 'same-origin' })],
    ['Sec-Fetch-Site none (typed by the user)', () => ({ 'sec-fetch-site': 'none' })],
    ['no Origin and no Sec-Fetch-Site (not a browser)', () => ({})],
  ])('accepts %s', async (_case, headers) => {
    const response = await activate(headers());

    expect(response.status).toBe(200);
    await response.json();
  });

  it('leaves an API-key caller alone whatever its Origin', async () => {
    const response = await fetch(`${runtime.url}/api/v1/releases`, {
      method: 'POST',
      headers: { 'x-api-key': owner.key, origin: 'https://evil.example', cookie: owner.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Keyed', benefitStatement: 'From a server' }),
    });

    expect(response.status).toBe(201);
    await response.json();
  });

  it('leaves reads alone: a cross-site GET with the cookie is answered', async () => {
    const response = await fetch(`${runtime.url}/api/v1/me`, { headers: { cookie: owner.cookie, origin: 'https://evil.example' } });

    expect(response.status).toBe(200);
    await response.json();
  });
});

describe('strict UTF-8 bodies', () => {
  it('answers a JSON body with invalid UTF-8 bytes with 400 invalid_request and stores nothing', async () => {
    const title = Buffer.concat([Buffer.from('{"title":"bad '), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('","benefitStatement":"x"}')]);
    const response = await fetch(`${runtime.url}/api/v1/releases`, {
      method: 'POST',
      headers: { 'x-api-key': owner.key, 'content-type': 'application/json' },
      body: title,
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(expectedEnvelope(runtime.url, 400, 'invalid_request'));
    const list = await fetch(`${runtime.url}/api/v1/releases`, { headers: { 'x-api-key': owner.key } });
    const { releases } = (await list.json()) as { releases: { title: string }[] };
    expect(releases.map((release) => release.title)).not.toContainEqual(expect.stringContaining('bad'));
  });

  it('takes the same body when its bytes are valid UTF-8 (control)', async () => {
    const response = await fetch(`${runtime.url}/api/v1/releases`, {
      method: 'POST',
      headers: { 'x-api-key': owner.key, 'content-type': 'application/json' },
      body: Buffer.from('{"title":"good é ☃","benefitStatement":"x"}'),
    });

    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ title: 'good é ☃' });
  });
});

describe('one request id', () => {
  let restore: ReturnType<typeof setLogSink> | undefined;
  let level: string | undefined;
  afterEach(() => {
    if (restore) setLogSink(restore);
    restore = undefined;
    process.env.LOG_LEVEL = level;
  });

  it('puts the X-Request-Id on every log line the request writes, debug lines included', async () => {
    const lines: Record<string, unknown>[] = [];
    level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'debug';
    restore = setLogSink((line) => lines.push(JSON.parse(line)));

    const response = await fetch(`${runtime.url}/api/v1/releases`, { headers: { 'x-api-key': owner.key } });
    await response.json();

    const id = response.headers.get('x-request-id');
    const mine = lines.filter((line) => line.requestId === id);
    // The auth middleware's debug line and the request line, at least.
    expect(mine.map((line) => line.msg)).toEqual(expect.arrayContaining(['authenticated', 'request']));
    expect(mine.every((line) => typeof line.coldStart === 'boolean' && line.functionVersion === '$LATEST')).toBe(true);
    expect(lines.filter((line) => line.msg === 'authenticated' && line.requestId !== id)).toEqual([]);
  });
});
