/**
 * Idempotency-Key on every POST of the workspace API, through the local server: a repeat gets the
 * first answer marked Idempotent-Replayed, another request with the key is 400, a failed request
 * keeps nothing, and concurrent repeats make one record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '#shared/services/identity-admin.ts';
import { connect, type Connection } from '#infra/admin/connection.ts';
import { IdempotencyStore } from '#shared/store/idempotency.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { expectedEnvelope } from '../support/expectations.ts';

let runtime: TestRuntime;
let db: Connection;
const org = { key: '', otherKey: '' };
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000002000000020806000000f478d4fa', 'hex');

beforeAll(async () => {
  runtime = await startTestRuntime({ workers: false });
  db = connect(runtime.env);
  const deps = { store: db.store };
  await admin.createUser(deps, { email: 'owner@example.com', name: 'Owner' });
  for (const name of ['key', 'otherKey'] as const) {
    const { organization } = await admin.createOrganization(deps, { name: `Org ${name}`, plan: 'pro', ownerUserId: 'owner@example.com' });
    org[name] = (await admin.issueApiKey(deps, { organizationId: organization.organizationId, name: 'test' })).key;
  }
});

afterAll(async () => {
  db?.close();
  await runtime?.dispose();
});

async function post(path: string, body: unknown, idempotencyKey?: string, apiKey = org.key) {
  const headers: Record<string, string> = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const response = await fetch(`${runtime.url}${path}`, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: (await response.json()) as Record<string, unknown> };
}

async function uploadedAsset(): Promise<string> {
  const created = await post('/api/v1/assets/upload-url', { bytes: png.length, contentType: 'image/png', fileName: 'shot.png' });
  const { 'Content-Length': _length, ...headers } = created.body.headers as Record<string, string>;
  expect((await fetch(created.body.uploadUrl as string, { method: 'PUT', headers, body: png })).status).toBe(200);
  return created.body.assetId as string;
}

const app = (name: string) => ({ name, allowedHosts: ['https://ci.example.com'] });
const upload = (fileName: string) => ({ bytes: png.length, contentType: 'image/png', fileName });

describe('Idempotency-Key on the workspace POSTs', () => {
  it.each([
    ['POST /api/v1/source-apps', async () => ({ path: '/api/v1/source-apps', first: app('CI'), other: app('Other'), status: 201, id: 'id' })],
    [
      'POST /api/v1/assets/upload-url',
      async () => ({ path: '/api/v1/assets/upload-url', first: upload('a.png'), other: upload('b.png'), status: 201, id: 'assetId' }),
    ],
    [
      'POST /api/v1/assets/{assetId}/complete',
      async () => ({ path: `/api/v1/assets/${await uploadedAsset()}/complete`, first: {}, other: { sha256: 'a'.repeat(64) }, status: 200, id: 'assetId' }),
    ],
  ])('%s: a repeat gets the first answer marked Idempotent-Replayed, another body 400', async (_case, setup) => {
    // Prepare
    const { path, first, other, status, id } = await setup();
    const key = `key-${path}`;

    // Act
    const original = await post(path, first, key);
    const repeat = await post(path, first, key);
    const changed = await post(path, other, key);

    // Assess
    expect(original).toMatchObject({ status, replayed: null });
    expect(repeat).toEqual({ status, replayed: 'true', body: original.body });
    expect(changed.status).toBe(400);
    expect(changed.body).toEqual(expectedEnvelope(runtime.url, 400, 'invalid_request'));
    expect(changed.body.error).toBe('Idempotency-Key reused with a different request');
    expect(original.body[id]).toEqual(expect.any(String));
  });

  it('runs each request without a key (control)', async () => {
    const one = await post('/api/v1/source-apps', app('Twice'));
    const two = await post('/api/v1/source-apps', app('Twice'));

    expect(one.body.id).not.toBe(two.body.id);
    expect([one.replayed, two.replayed]).toEqual([null, null]);
  });

  it('scopes a key to its workspace: another workspace with the same key gets its own record', async () => {
    const mine = await post('/api/v1/source-apps', app('Scoped'), 'shared-key');
    const theirs = await post('/api/v1/source-apps', app('Scoped'), 'shared-key', org.otherKey);

    expect(theirs).toMatchObject({ status: 201, replayed: null });
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('keeps nothing of a failed request: a retry with its key runs again', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';

    const first = await post(`/api/v1/assets/${missing}/complete`, {}, 'failing-key');
    const retry = await post(`/api/v1/assets/${missing}/complete`, {}, 'failing-key');

    expect(first.status).toBe(404);
    expect(retry).toMatchObject({ status: 404, replayed: null });
  });

  it('answers concurrent repeats with one record', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => post('/api/v1/source-apps', app('Racing'), 'racing-key')));

    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.filter((answer) => answer.replayed === null)).toHaveLength(1);
  });

  it('refuses a key over 128 characters with 400', async () => {
    const answer = await post('/api/v1/source-apps', app('Long'), 'k'.repeat(129));

    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_request', hint: 'header idempotency-key: must be at most 128 characters' });
  });

  it('marks a repeated release create as replayed, with 200 and the original release', async () => {
    const release = { title: 'Launch', benefitStatement: 'Faster' };

    const first = await post('/api/v1/releases', release, 'release-key');
    const repeat = await post('/api/v1/releases', release, 'release-key');

    expect(first).toMatchObject({ status: 201, replayed: null });
    expect(repeat).toEqual({ status: 200, replayed: 'true', body: first.body });
  });
});

describe('the idempotency store on the embedded DynamoDB', () => {
  const store = () => new IdempotencyStore({ dynamo: db.dynamo, table: db.table });
  const slot = { workspaceId: 'ws_lease', operationId: 'createSourceApp', keyHash: 'a'.repeat(64) };
  const claim = (owner: string, now: number, leaseEnds: number) => ({ requestHash: 'h-1', owner, now, leaseEnds });

  it('takes over a pending claim once its lease is over, after which the earlier owner can neither store nor free it', async () => {
    // Act: epoch seconds of a clock the test holds
    const first = await store().claim(slot, claim('req-1', 1_000, 1_010));
    const during = await store().claim(slot, claim('req-2', 1_010, 1_020));
    const after = await store().claim(slot, claim('req-2', 1_011, 1_030));
    const lateSave = await store().complete(slot, 'req-1', { status: 201, body: '{"id":"one"}', keepUntil: 90_000 });
    await store().release(slot, 'req-1');
    const held = await store().read(slot, 1_012);
    const save = await store().complete(slot, 'req-2', { status: 201, body: '{"id":"two"}', keepUntil: 1_012 + 86_400 });

    // Assess
    expect(first).toEqual({ claimed: true });
    expect(during).toEqual({ claimed: false, record: { state: 'pending', requestHash: 'h-1' } });
    expect(after).toEqual({ claimed: true, tookOver: 'req-1' });
    expect(lateSave).toBe(false);
    expect(held).toEqual({ state: 'pending', requestHash: 'h-1' });
    expect(save).toBe(true);
    expect(await store().read(slot, 1_012 + 86_400)).toEqual({ state: 'done', requestHash: 'h-1', status: 201, body: '{"id":"two"}' });
    expect(await store().read(slot, 1_012 + 86_401)).toBeUndefined();
    expect(await store().claim(slot, claim('req-3', 1_012 + 86_401, 1_012 + 86_411))).toEqual({ claimed: true });
  });
});
