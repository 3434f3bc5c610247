/**
 * Release intake end to end on the local runtime (issue 45): a source app's signed webhook, taken
 * in as a draft release whose pages on the app's allowed hosts are captured by the shot worker.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '#infra/admin/cli.ts';
import { MAX_INTAKE_BYTES } from '#shared/schemas/intake.ts';
import { call } from '../support/client.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import type { FixtureOrg } from '../support/route-requests.ts';
import { collectedLogLines } from '../support/secret-audit.ts';
import { queued, useShotSuite } from '../support/shot-suite.ts';

const kit = useShotSuite();
const { suite, api } = kit;

/** A fresh signing secret stored as the app's webhookSecret by the admin command, as an operator would. */
const adminIo = (out: string[] = []) => ({
  env: { ...process.env, EASEL_DATA_DIR: suite.runtime.dataDir },
  stdout: (text: string) => out.push(text),
  stderr: (text: string) => out.push(text),
});

async function newSecret(name: string): Promise<string> {
  const out: string[] = [];
  expect(await runAdmin(['new-webhook-secret', '--name', name, '--json'], adminIo(out))).toBe(0);
  return JSON.parse(out.join('')).webhookSecret as string;
}

async function sourceApp(org: FixtureOrg, body: Record<string, unknown>): Promise<string> {
  const created = await api(org, '/api/v1/source-apps', body);
  expect(created.status).toBe(201);
  return created.body.id as string;
}

const deliver = (appId: string, text: string, headers: Record<string, string>) =>
  call(suite.runtime.url, `/api/v1/source-apps/${appId}/intake`, { body: text, headers: { 'content-type': 'application/json', ...headers } });

/** As GitHub sends one: the event, a delivery id, the signature of the exact bytes. */
function github(secret: string, body: unknown, event = 'release', deliveryId: string = randomUUID()) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const signature = `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;
  return { text, headers: { 'x-github-event': event, 'x-github-delivery': deliveryId, 'x-hub-signature-256': signature } };
}

/** As a Standard Webhooks sender signs one, with node:crypto rather than the package the service verifies with. */
function standard(secret: string, body: unknown, timestamp = Math.floor(Date.now() / 1000), id = `msg_${randomUUID()}`) {
  const text = JSON.stringify(body);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${text}`).digest('base64');
  return { text, headers: { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` } };
}

const release = (id: number, name: string, body: string, action = 'published') => ({
  action,
  release: { id, tag_name: `v${id}`, name, body, html_url: `https://github.com/acme/web/releases/tag/v${id}`, draft: false },
  repository: { full_name: 'acme/web' },
});

/** Every item of the workspace's partition: what a refused delivery must leave as it was. */
async function workspaceItems(org: FixtureOrg): Promise<unknown[]> {
  const { Items = [] } = await kit.dynamo.send(
    new QueryCommand({
      TableName: suite.runtime.env.WORKSPACE_TABLE,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `WS#${org.workspaceId}` },
    }),
  );
  return Items;
}

async function releasesOf(org: FixtureOrg, externalReleaseId: string) {
  const list = await api(org, '/api/v1/releases?limit=100');
  return (list.body.releases as { intake?: { externalReleaseId: string } }[]).filter((item) => item.intake?.externalReleaseId === externalReleaseId);
}

let githubApp: string;
let githubSecret: string;

beforeAll(async () => {
  githubSecret = await newSecret('intake-github');
  githubApp = await sourceApp(kit.fixtures.a, {
    name: 'Web app',
    provider: 'github',
    externalId: 'acme/web',
    allowedHosts: [suite.pages.app],
    secretReference: 'intake-github',
  });
});

describe('POST /api/v1/source-apps/{sourceAppId}/intake from GitHub', () => {
  it('takes in a published release as a draft and captures its pages on the allowed hosts only', async () => {
    // Prepare: notes that link the app's page, another origin's and GitHub's
    const notes = [
      'Dark mode is here. It is *easier* on the eyes.',
      '',
      `- See [the page](${suite.pages.app}/plain) and ${suite.pages.other}/plain`,
      '- Fixed by @ada in https://github.com/acme/web/pull/7 <b>`Array<string>`</b>',
    ].join('\n');
    const delivery = github(githubSecret, release(4001, 'Dark mode', notes));

    // Act
    const answer = await deliver(githubApp, delivery.text, delivery.headers);
    const shots = await kit.settled(kit.fixtures.a, answer.body.release.id);

    // Assess: a draft with the notes as plain text, its sourceUrls on the allowed host only, its shots queued
    expect(answer.status).toBe(202);
    const draft = {
      id: expect.any(String),
      title: 'Dark mode',
      benefitStatement: 'Dark mode is here. It is easier on the eyes.',
      description: `Dark mode is here. It is easier on the eyes.\n\n- See the page and ${suite.pages.other}/plain\n- Fixed by @ada in https://github.com/acme/web/pull/7 Array‹string>`,
      sourceUrls: [`${suite.pages.app}/plain`],
      createdAt: expect.any(String),
      state: 'draft',
      intake: {
        sourceAppId: githubApp,
        provider: 'github',
        externalReleaseId: '4001',
        url: 'https://github.com/acme/web/releases/tag/v4001',
        deliveryId: delivery.headers['x-github-delivery'],
        updatedAt: expect.any(String),
      },
    };
    const name = `127.0.0.1-${new URL(suite.pages.app).port}-plain`;
    expect(answer.body).toEqual({
      result: 'created',
      deliveryId: delivery.headers['x-github-delivery'],
      event: 'release.published',
      release: draft,
      run: {
        releaseId: answer.body.release.id,
        runId: expect.any(String),
        createdAt: expect.any(String),
        shots: [queued(name, `${suite.pages.app}/plain`, answer.body.run.runId)],
      },
    });
    // Assess: the draft arrives with its screenshot, and no other origin was captured
    expect(shots.counts).toEqual({ queued: 0, running: 0, done: 1, failed: 0 });
    expect(shots.shots[0]).toMatchObject({ name, status: 'done', assetId: expect.any(String) });
    expect(await releasesOf(kit.fixtures.a, '4001')).toEqual([draft]);
  }, 120_000);

  it('answers a delivery seen before as the first time did, and writes nothing again', async () => {
    // Prepare
    const delivery = github(githubSecret, release(4002, 'Replayed', 'Once only.'));
    const first = await deliver(githubApp, delivery.text, delivery.headers);
    const items = await workspaceItems(kit.fixtures.a);

    // Act
    const again = await deliver(githubApp, delivery.text, delivery.headers);

    // Assess
    expect(first.status).toBe(202);
    expect({ status: again.status, replayed: again.headers['idempotent-replayed'], body: again.body }).toEqual({
      status: 202,
      replayed: 'true',
      body: first.body,
    });
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await workspaceItems(kit.fixtures.a)).toEqual(items);
  });

  it('lands the same release sent again, concurrently, and edited on one draft', async () => {
    // Act: five deliveries of one release at once, then an edit
    const sent = await Promise.all(
      Array.from({ length: 5 }, () => github(githubSecret, release(4003, 'Export', 'Faster exports.'))).map((d) => deliver(githubApp, d.text, d.headers)),
    );
    const edit = github(githubSecret, release(4003, 'Export to WebP', 'Exports are **faster**, and WebP is new.', 'edited'));
    const edited = await deliver(githubApp, edit.text, edit.headers);

    // Assess: one created, the rest updated, all on the same release; the edit rewrote it
    expect(sent.map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202]);
    expect(sent.map((answer) => answer.body.result).sort()).toEqual(['created', 'updated', 'updated', 'updated', 'updated']);
    const releaseId = sent[0]!.body.release.id;
    expect(new Set(sent.map((answer) => answer.body.release.id))).toEqual(new Set([releaseId]));
    expect(edited.status).toBe(202);
    expect(edited.body).toEqual({
      result: 'updated',
      deliveryId: edit.headers['x-github-delivery'],
      event: 'release.edited',
      release: expect.objectContaining({ id: releaseId, title: 'Export to WebP', benefitStatement: 'Exports are faster, and WebP is new.', state: 'draft' }),
    });
    expect(await releasesOf(kit.fixtures.a, '4003')).toEqual([edited.body.release]);
  });

  it.each([
    ['ping', 'ping', { zen: 'Design for failure.', hook_id: 1 }, 'only release events are taken in, not ping'],
    ['a release created', 'release', release(4004, 'Draft upstream', '', 'created'), 'only the release actions published and edited are taken in, not created'],
    [
      'an edit of a release never published here',
      'release',
      release(4005, 'Unknown', '', 'edited'),
      'no draft of this release: it was never published to this workspace',
    ],
  ])('answers %s with 202 ignored and writes nothing', async (_case, event, body, reason) => {
    // Prepare
    const delivery = github(githubSecret, body, event);
    const items = await workspaceItems(kit.fixtures.a);

    // Act
    const answer = await deliver(githubApp, delivery.text, delivery.headers);

    // Assess: only the delivery's own record is new
    const action = (body as { action?: string }).action;
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 202,
      body: { result: 'ignored', deliveryId: delivery.headers['x-github-delivery'], event: action ? `${event}.${action}` : event, reason },
    });
    expect((await workspaceItems(kit.fixtures.a)).length).toBe(items.length + 1);
  });

  it.each([
    ['a wrong signature', (d: ReturnType<typeof github>) => ({ ...d.headers, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` })],
    ['no signature', (d: ReturnType<typeof github>) => ({ 'x-github-event': 'release', 'x-github-delivery': d.headers['x-github-delivery'] })],
    ['a signature of other bytes', (d: ReturnType<typeof github>) => github(githubSecret, `${d.text} `).headers],
    [
      'the signature in upper case',
      (d: ReturnType<typeof github>) => ({ ...d.headers, 'x-hub-signature-256': d.headers['x-hub-signature-256'].toUpperCase() }),
    ],
  ])('refuses %s with 401 and stores nothing', async (_case, headersOf) => {
    // Prepare
    const delivery = github(githubSecret, release(4006, 'Forged', 'Nope.'));
    const items = await workspaceItems(kit.fixtures.a);

    // Act
    const answer = await deliver(githubApp, delivery.text, headersOf(delivery));

    // Assess
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: expectedEnvelope(suite.runtime.url, 401, 'unauthorized') });
    expect(answer.body.hint).toMatch(/webhookSecret/);
    expect(await workspaceItems(kit.fixtures.a)).toEqual(items);
  });

  it(`takes a body of exactly ${MAX_INTAKE_BYTES} bytes and refuses one byte more with 413`, async () => {
    // Prepare: a ping padded with JSON whitespace, signed as it is
    const ping = JSON.stringify({ zen: 'Keep it logically awesome.' });
    const atBound = github(githubSecret, ping + ' '.repeat(MAX_INTAKE_BYTES - ping.length), 'ping');
    const past = github(githubSecret, ping + ' '.repeat(MAX_INTAKE_BYTES - ping.length + 1), 'ping');

    // Act
    const taken = await deliver(githubApp, atBound.text, atBound.headers);
    const refused = await deliver(githubApp, past.text, past.headers);

    // Assess
    expect({ status: taken.status, result: taken.body.result }).toEqual({ status: 202, result: 'ignored' });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 413,
      body: { ...expectedEnvelope(suite.runtime.url, 413, 'invalid_request'), limit: MAX_INTAKE_BYTES },
    });
  });

  it('refuses an app without a webhook secret with 401, and an unknown app with 404', async () => {
    // Prepare: an app naming no secret, and one whose secret holds a login but no webhookSecret
    const noReference = await sourceApp(kit.fixtures.a, { name: 'No secret', provider: 'github', allowedHosts: [suite.pages.app] });
    const noWebhookSecret = await sourceApp(kit.fixtures.a, {
      name: 'Login only',
      provider: 'github',
      allowedHosts: [suite.pages.app],
      secretReference: 'shots-only',
    });
    const file = join(suite.runtime.dataDir, 'login-only.json');
    writeFileSync(file, '{"headers":{"X-Pass":"1"}}');
    expect(await runAdmin(['put-secret', '--name', 'shots-only', '--file', file], adminIo())).toBe(0);
    const delivery = github(githubSecret, release(4007, 'Nobody', 'Nothing.'));

    // Act
    const answers = await Promise.all([noReference, noWebhookSecret, randomUUID()].map((id) => deliver(id, delivery.text, delivery.headers)));

    // Assess
    expect(answers.map((answer) => ({ status: answer.status, body: answer.body }))).toEqual([
      { status: 401, body: expectedEnvelope(suite.runtime.url, 401, 'unauthorized') },
      { status: 401, body: expectedEnvelope(suite.runtime.url, 401, 'unauthorized') },
      { status: 404, body: expectedEnvelope(suite.runtime.url, 404, 'not_found') },
    ]);
  });
});

describe('POST /api/v1/source-apps/{sourceAppId}/intake with Standard Webhooks', () => {
  let app: string;
  let secret: string;
  beforeAll(async () => {
    secret = await newSecret('intake-standard');
    app = await sourceApp(kit.fixtures.a, { name: 'Billing', externalId: 'billing', allowedHosts: [suite.pages.other], secretReference: 'intake-standard' });
  });
  const event = (id: string, type = 'release.published') => ({
    type,
    timestamp: new Date().toISOString(),
    data: { id, name: 'Invoices', notes: 'Invoices are searchable.', urls: [`${suite.pages.other}/plain`, `${suite.pages.app}/plain`] },
  });

  it('takes in release.published signed by the headers, its URLs on the allowed hosts as sourceUrls, and captures them', async () => {
    // Prepare
    const delivery = standard(secret, event('inv-1'));

    // Act
    const answer = await deliver(app, delivery.text, delivery.headers);
    const shots = await kit.settled(kit.fixtures.a, answer.body.release.id);

    // Assess
    expect(answer.status).toBe(202);
    expect(shots.counts).toEqual({ queued: 0, running: 0, done: 1, failed: 0 });
    expect(answer.body).toMatchObject({
      result: 'created',
      deliveryId: delivery.headers['webhook-id'],
      event: 'release.published',
      release: {
        title: 'Invoices',
        benefitStatement: 'Invoices are searchable.',
        sourceUrls: [`${suite.pages.other}/plain`],
        intake: { provider: 'generic', externalReleaseId: 'inv-1' },
      },
      run: { shots: [expect.objectContaining({ url: `${suite.pages.other}/plain` })] },
    });
  }, 120_000);

  it.each([
    ['a timestamp 6 minutes old', (body: unknown) => standard(secret, body, Math.floor(Date.now() / 1000) - 360), /5 minutes/],
    ['a timestamp 6 minutes ahead', (body: unknown) => standard(secret, body, Math.floor(Date.now() / 1000) + 360), /5 minutes/],
    ['another secret', (body: unknown) => standard(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, body), /webhookSecret/],
  ])('refuses %s with 401 and stores nothing', async (_case, sign, hint) => {
    // Prepare
    const delivery = sign(event('inv-2'));
    const items = await workspaceItems(kit.fixtures.a);

    // Act
    const answer = await deliver(app, delivery.text, delivery.headers);

    // Assess
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: expectedEnvelope(suite.runtime.url, 401, 'unauthorized') });
    expect(answer.body.hint).toMatch(hint);
    expect(await workspaceItems(kit.fixtures.a)).toEqual(items);
  });

  it('answers 400 naming the field of a release event without a name, and ignores other types', async () => {
    // Prepare
    const broken = standard(secret, { type: 'release.published', data: { id: 'inv-3' } });
    const other = standard(secret, { type: 'invoice.paid', data: { id: 'x' } });

    // Act
    const [refused, ignored] = [await deliver(app, broken.text, broken.headers), await deliver(app, other.text, other.headers)];

    // Assess
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: { ...expectedEnvelope(suite.runtime.url, 400, 'invalid_request'), message: 'Invalid data.name', error: 'Invalid data.name' },
    });
    expect(ignored.body).toEqual({
      result: 'ignored',
      deliveryId: other.headers['webhook-id'],
      event: 'invoice.paid',
      reason: 'only release.published and release.updated are taken in, not invoice.paid',
    });
  });

  it('never logs a webhook secret', () => {
    expect(collectedLogLines().filter((line) => line.includes(secret) || line.includes(githubSecret))).toEqual([]);
  });
});
