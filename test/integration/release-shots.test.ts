/**
 * A release's shots end to end on the local runtime (issue 44): queued by the API, taken by the
 * shot worker from the embedded queue, captured by the real Chromium from local pages, stored as
 * assets of the workspace, compared with the previous release; behind a source app's login.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '#infra/admin/cli.ts';
import { call } from '../support/client.ts';
import { expectedEnvelope, waitFor } from '../support/expectations.ts';
import { readPixels } from '../support/images.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { createFixtures, type FixtureOrg, type Fixtures } from '../support/route-requests.ts';
import { collectedLogLines } from '../support/secret-audit.ts';
import { BOX, GREEN, LOGIN, RED, startShotPages } from '../support/shot-pages.ts';

const suite = useRuntimeWithPages(startShotPages);
let fixtures: Fixtures;
let dynamo: DynamoDBDocumentClient;
let sqs: SQSClient;

beforeAll(async () => {
  fixtures = await createFixtures(suite.runtime);
  const aws = { region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } };
  dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({ ...aws, endpoint: suite.runtime.env.DYNAMODB_ENDPOINT }));
  sqs = new SQSClient({ ...aws, endpoint: suite.runtime.env.SQS_ENDPOINT });
});

afterAll(() => {
  dynamo?.destroy();
  sqs?.destroy();
  fixtures?.close();
});

const VIEWPORT = 1920 * 1080;
const api = (org: FixtureOrg, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(suite.runtime.url, path, { ...(body === undefined ? {} : { method: 'POST', body }), headers: { 'x-api-key': org.key, ...headers } });

async function createRelease(org: FixtureOrg, sourceUrls: string[] = []): Promise<string> {
  const created = await api(org, '/api/v1/releases', { title: 'Release', benefitStatement: 'Better', sourceUrls });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/** The release's shots once none is queued or running. */
async function settled(org: FixtureOrg, releaseId: string) {
  return waitFor(async () => {
    const read = await api(org, `/api/v1/releases/${releaseId}/shots`);
    expect(read.status).toBe(200);
    return read.body.counts.queued + read.body.counts.running === 0 ? read.body : undefined;
  }, 90_000);
}

async function download(org: FixtureOrg, assetId: string): Promise<string> {
  const signed = await api(org, `/api/v1/assets/${assetId}/download-url`);
  expect(signed.status).toBe(200);
  const response = await fetch(signed.body.downloadUrl);
  return Buffer.from(await response.arrayBuffer()).toString('base64');
}

/** The workspace's asset records of a release's shots. */
async function shotAssets(org: FixtureOrg, releaseId: string) {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: suite.runtime.env.WORKSPACE_TABLE,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :asset)',
      FilterExpression: 'releaseId = :release',
      ExpressionAttributeValues: { ':pk': `WS#${org.workspaceId}`, ':asset': 'ASSET#', ':release': releaseId },
    }),
  );
  return Items;
}

const queued = (name: string, url: string, runId: string, extra: Record<string, unknown> = {}) => ({
  name,
  url,
  deviceType: 'desktop',
  colorScheme: 'light',
  status: 'queued',
  runId,
  queuedAt: expect.any(String),
  ...extra,
});

describe('POST /api/v1/releases/{releaseId}/shots: the worker', () => {
  let releaseId: string;
  let plainAssetId: string;

  it('answers 202 with the run, captures each shot into the workspace, and fails only the shot whose page fails, with its envelope', async () => {
    // Prepare
    releaseId = await createRelease(fixtures.a);
    const plain = `${suite.pages.app}/plain`;

    // Act
    const run = await api(fixtures.a, `/api/v1/releases/${releaseId}/shots`, {
      shots: [
        { name: 'plain', url: plain },
        { name: 'missing', url: plain, selector: '#missing' },
      ],
    });
    const shots = await settled(fixtures.a, releaseId);

    // Assess: the answer names the run and its queued shots
    expect(run.status).toBe(202);
    expect(run.body).toEqual({
      releaseId,
      runId: expect.any(String),
      createdAt: expect.any(String),
      shots: [queued('plain', plain, run.body.runId), queued('missing', plain, run.body.runId)],
    });
    // Assess: one done with its asset, one failed with the envelope POST /api/screenshot would answer
    expect(shots.counts).toEqual({ queued: 0, running: 0, done: 1, failed: 1 });
    const [missing, done] = shots.shots;
    expect(missing).toEqual({
      ...queued('missing', plain, run.body.runId),
      status: 'failed',
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      attempts: 1,
      error: expectedEnvelope(suite.runtime.url, 404, 'not_found'),
    });
    expect(done).toEqual({
      ...queued('plain', plain, run.body.runId),
      status: 'done',
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      attempts: 1,
      assetId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      bytes: expect.any(Number),
      width: 1920,
      height: 1080,
      report: expect.objectContaining({ status: 200, fontsReady: true }),
    });
    plainAssetId = done.assetId;
    // Assess: the download URL serves the picture, and the record links it to the release and shot
    expect((await readPixels(await download(fixtures.a, plainAssetId))).count(GREEN)).toBe(VIEWPORT);
    expect(await shotAssets(fixtures.a, releaseId)).toEqual([
      expect.objectContaining({
        assetId: plainAssetId,
        status: 'ready',
        classification: 'release-shot',
        contentType: 'image/png',
        bytes: done.bytes,
        fileName: 'plain.png',
        releaseId,
        shotName: 'plain',
        report: done.report,
      }),
    ]);
  }, 120_000);

  it('stores nothing twice when the queue delivers a finished shot again', async () => {
    // Prepare: the message of the done shot, as SQS would redeliver it
    const before = await shotAssets(fixtures.a, releaseId);
    const shot = (await api(fixtures.a, `/api/v1/releases/${releaseId}/shots`)).body.shots.find((item: { name: string }) => item.name === 'plain');
    const body = JSON.stringify({ workspaceId: fixtures.a.workspaceId, releaseId, name: 'plain', runId: shot.runId });

    // Act
    const sent = await sqs.send(new SendMessageCommand({ QueueUrl: suite.runtime.env.SHOT_QUEUE_URL, MessageBody: body }));
    const line = await waitFor(async () => collectedLogLines().find((text) => text.includes(sent.MessageId!) && text.includes('"msg":"release shot"')));

    // Assess: the worker found it finished and changed nothing
    expect(JSON.parse(line)).toMatchObject({ outcome: 'finished', shot: 'plain' });
    expect(await shotAssets(fixtures.a, releaseId)).toEqual(before);
    expect((await api(fixtures.a, `/api/v1/releases/${releaseId}/shots`)).body.shots).toContainEqual(shot);
  }, 60_000);

  it("photographs the release's sourceUrls when no shots are given, once per device of the matrix", async () => {
    // Prepare
    const url = `${suite.pages.app}/plain`;
    const id = await createRelease(fixtures.a, [url]);
    const base = `127.0.0.1-${suite.pages.port}-plain`;

    // Act
    const run = await api(fixtures.a, `/api/v1/releases/${id}/shots`, { matrix: { deviceTypes: ['desktop', 'mobile'] } });
    const shots = await settled(fixtures.a, id);

    // Assess
    expect(run.status).toBe(202);
    expect(run.body.shots.map((shot: { name: string; deviceType: string }) => [shot.name, shot.deviceType])).toEqual([
      [`${base}-desktop`, 'desktop'],
      [`${base}-mobile`, 'mobile'],
    ]);
    expect(
      shots.shots.map((shot: { name: string; status: string; width: number; height: number }) => [shot.name, shot.status, shot.width, shot.height]),
    ).toEqual([
      [`${base}-desktop`, 'done', 1920, 1080],
      [`${base}-mobile`, 'done', 750, 1334],
    ]);
  }, 120_000);
});

describe('release shots behind a source app’s login', () => {
  it('sends the secret’s headers and cookies to the app’s origin only: its page is green, the other origin gets none of them', async () => {
    // Prepare: a source app for the app's origin, and its secret in the local store through the admin command
    const secretFile = join(suite.runtime.dataDir, 'login.json');
    writeFileSync(
      secretFile,
      JSON.stringify({ headers: { [LOGIN.header[0]]: LOGIN.header[1] }, cookies: [{ name: LOGIN.cookie[0], value: LOGIN.cookie[1] }], webhookSecret: 'whsec' }),
    );
    const out: string[] = [];
    const io = {
      env: { ...process.env, EASEL_DATA_DIR: suite.runtime.dataDir },
      stdout: (text: string) => out.push(text),
      stderr: (text: string) => out.push(text),
    };
    expect(await runAdmin(['put-secret', '--name', 'shots-login', '--file', secretFile], io)).toBe(0);
    const app = await api(fixtures.a, '/api/v1/source-apps', { name: 'App', allowedHosts: [suite.pages.app], secretReference: 'shots-login' });
    expect(app.status).toBe(201);
    const releaseId = await createRelease(fixtures.a);
    const hitsBefore = suite.pages.hits.length;

    // Act
    const run = await api(fixtures.a, `/api/v1/releases/${releaseId}/shots`, {
      shots: [
        { name: 'app', url: `${suite.pages.app}/gated` },
        { name: 'other', url: `${suite.pages.other}/gated` },
      ],
    });
    const shots = await settled(fixtures.a, releaseId);

    // Assess: signed in on the app's origin only
    expect(run.status).toBe(202);
    const [appShot, otherShot] = shots.shots;
    expect(appShot).toMatchObject({ name: 'app', status: 'done', login: { sourceAppId: app.body.id } });
    expect(otherShot).toMatchObject({ name: 'other', status: 'done' });
    expect(otherShot.login).toBeUndefined();
    expect((await readPixels(await download(fixtures.a, appShot.assetId))).count(GREEN)).toBe(VIEWPORT);
    expect((await readPixels(await download(fixtures.a, otherShot.assetId))).count(RED)).toBe(VIEWPORT);
    // Assess: the app's page loaded the other origin three ways (image, fetch, redirect), and none carried the login
    const reached = suite.pages.hits.slice(hitsBefore).filter((hit) => hit.origin === 'other' && hit.path.startsWith('/probe'));
    expect(reached.length).toBeGreaterThanOrEqual(3);
    for (const hit of reached) {
      expect(hit.headers[LOGIN.header[0].toLowerCase()]).toBeUndefined();
      expect(hit.headers.cookie ?? '').not.toContain(LOGIN.cookie[1]);
    }
    // Assess: the secret is in no answer and no log line
    expect(JSON.stringify(shots)).not.toMatch(new RegExp(`${LOGIN.header[1]}|${LOGIN.cookie[1]}|whsec`));
    expect(collectedLogLines().filter((text) => text.includes(LOGIN.header[1]) || text.includes(LOGIN.cookie[1]))).toEqual([]);
    expect(out.join('')).not.toContain(LOGIN.cookie[1]);
  }, 120_000);

  it('fails the shot, saying so, when the secret its source app names is missing', async () => {
    // Prepare: in workspace B, an app whose secret was never stored
    await api(fixtures.b, '/api/v1/source-apps', { name: 'No secret', allowedHosts: [suite.pages.app], secretReference: 'never-stored' });
    const releaseId = await createRelease(fixtures.b);

    // Act
    await api(fixtures.b, `/api/v1/releases/${releaseId}/shots`, { shots: [{ name: 'app', url: `${suite.pages.app}/gated` }] });
    const shots = await settled(fixtures.b, releaseId);

    // Assess
    expect(shots.shots[0]).toMatchObject({
      name: 'app',
      status: 'failed',
      error: { ...expectedEnvelope(suite.runtime.url, 404, 'not_found'), error: 'Login secret not found', hint: expect.stringContaining('never-stored') },
    });
  }, 60_000);
});

describe('release shots: what changed since the previous release', () => {
  it('counts the pixels of the one region that changed, stores the diff picture, and leaves masked regions out', async () => {
    // Prepare: the page's box is blue in the first release
    const url = `${suite.pages.app}/changing`;
    suite.pages.box.colour = 'rgb(0,0,255)';
    const first = await createRelease(fixtures.a);
    await api(fixtures.a, `/api/v1/releases/${first}/shots`, { shots: [{ name: 'home', url }] });
    const [baseline] = (await settled(fixtures.a, first)).shots;

    // Act: yellow in the second release; blue again, masked, in the third
    suite.pages.box.colour = 'rgb(255,200,0)';
    const second = await createRelease(fixtures.a);
    await api(fixtures.a, `/api/v1/releases/${second}/shots`, { shots: [{ name: 'home', url }] });
    const [changed] = (await settled(fixtures.a, second)).shots;
    suite.pages.box.colour = 'rgb(0,0,255)';
    const third = await createRelease(fixtures.a);
    await api(fixtures.a, `/api/v1/releases/${third}/shots`, { shots: [{ name: 'home', url, mask: { rects: [BOX] } }] });
    const [masked] = (await settled(fixtures.a, third)).shots;

    // Assess: the first has nothing to compare with; the second changed exactly the box
    expect(baseline).toMatchObject({ status: 'done' });
    expect(baseline.changes).toBeUndefined();
    const area = BOX.width * BOX.height;
    expect(changed.changes).toEqual({
      baseline: { releaseId: first, assetId: baseline.assetId },
      ratio: area / VIEWPORT,
      pixels: area,
      width: 1920,
      height: 1080,
      sizeChanged: false,
      diffAssetId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const diff = await readPixels(await download(fixtures.a, changed.changes.diffAssetId));
    expect(diff.count([255, 0, 0])).toBe(area);
    expect(diff.at(BOX.x + 1, BOX.y + 1)).toEqual([255, 0, 0]);
    // Assess: masked, the same change counts for nothing; the baseline is the second release's picture
    expect(masked.changes).toMatchObject({ baseline: { releaseId: second, assetId: changed.assetId }, pixels: 0, ratio: 0 });
  }, 180_000);
});

describe('POST /api/v1/releases/{releaseId}/shots: refusals queue nothing', () => {
  const plain = () => `${suite.pages.app}/plain`;
  const nothingQueued = async (releaseId: string) =>
    expect((await api(fixtures.a, `/api/v1/releases/${releaseId}/shots`)).body).toEqual({
      releaseId,
      counts: { queued: 0, running: 0, done: 0, failed: 0 },
      shots: [],
    });

  it('answers 400 naming the shot and field that is invalid', async () => {
    // Prepare
    const releaseId = await createRelease(fixtures.a);
    const shots = [0, 1, 2, 3].map((index) => ({ name: `s${index}`, url: plain(), ...(index === 3 ? { viewport: { width: 100, height: 800 } } : {}) }));

    // Act
    const response = await api(fixtures.a, `/api/v1/releases/${releaseId}/shots`, { shots });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      ...expectedEnvelope(suite.runtime.url, 400, 'invalid_request'),
      error: 'Invalid shots[3].viewport.width',
      message: 'Invalid shots[3].viewport.width',
    });
    await nothingQueued(releaseId);
  });

  it.each([
    [
      'more shots than a run takes',
      { shots: Array.from({ length: 101 }, (_, index) => ({ name: `s${index}`, url: 'https://example.com/' })) },
      'Invalid shots',
    ],
    [
      'a matrix that makes more than a run takes',
      {
        shots: Array.from({ length: 26 }, (_, index) => ({ name: `s${index}`, url: 'https://example.com/' })),
        matrix: { deviceTypes: ['desktop', 'mobile'], colorSchemes: ['light', 'dark'] },
      },
      'Too many shots',
    ],
    [
      'two shots of one name',
      {
        shots: [
          { name: 'same', url: 'https://example.com/' },
          { name: 'same', url: 'https://example.com/b' },
        ],
      },
      'Duplicate shot name same',
    ],
    ['no shots and no sourceUrls', {}, 'No shots to run'],
  ])('answers 400 for %s', async (_case, body, error) => {
    // Prepare
    const releaseId = await createRelease(fixtures.a);

    // Act
    const response = await api(fixtures.a, `/api/v1/releases/${releaseId}/shots`, body);

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ ...expectedEnvelope(suite.runtime.url, 400, 'invalid_request'), error, message: error });
    await nothingQueued(releaseId);
  });

  it('answers 404 for a release of another workspace', async () => {
    // Prepare
    const releaseId = await createRelease(fixtures.b);

    // Act
    const run = await api(fixtures.a, `/api/v1/releases/${releaseId}/shots`, { shots: [{ name: 'x', url: plain() }] });
    const read = await api(fixtures.a, `/api/v1/releases/${releaseId}/shots`);

    // Assess
    expect(run.status).toBe(404);
    expect(run.body).toEqual({ ...expectedEnvelope(suite.runtime.url, 404, 'not_found'), error: 'Release not found', message: 'Release not found' });
    expect(read.status).toBe(404);
  });

  it('answers 403 to a key without the release:capture scope', async () => {
    // Prepare
    const releaseId = await createRelease(fixtures.a);
    const key = await fixtures.keyWithout('release:capture');

    // Act
    const response = await call(suite.runtime.url, `/api/v1/releases/${releaseId}/shots`, {
      method: 'POST',
      body: { shots: [{ name: 'x', url: plain() }] },
      headers: { 'x-api-key': key },
    });

    // Assess
    expect(response.status).toBe(403);
    expect(response.body).toEqual(expectedEnvelope(suite.runtime.url, 403, 'forbidden'));
    expect(response.body.hint).toContain('release:capture');
    await nothingQueued(releaseId);
  });

  it("answers 429 with the workspace quota envelope when the run would pass the plan's monthly shots, and counts none of it", async () => {
    // Prepare: this month's counter 5 short of the pro plan's 2000
    const now = new Date();
    const month = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const counter = { pk: `quota#shots:month#${fixtures.a.workspaceId}#${month}` };
    await dynamo.send(
      new UpdateCommand({
        TableName: suite.runtime.env.RATE_TABLE,
        Key: counter,
        UpdateExpression: 'SET hits = :hits',
        ExpressionAttributeValues: { ':hits': 1995 },
      }),
    );
    const releaseId = await createRelease(fixtures.a);
    const shots = Array.from({ length: 6 }, (_, index) => ({ name: `s${index}`, url: plain() }));

    // Act
    const response = await api(fixtures.a, `/api/v1/releases/${releaseId}/shots`, { shots });

    // Assess
    expect(response.status).toBe(429);
    expect(response.body).toEqual({ ...expectedEnvelope(suite.runtime.url, 429, 'workspace_quota_exceeded'), limit: 2000, quota: 'shots:month' });
    expect(response.body.hint).toContain('6 this request needs');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    await nothingQueued(releaseId);
    const { Item } = await dynamo.send(new GetCommand({ TableName: suite.runtime.env.RATE_TABLE, Key: counter, ConsistentRead: true }));
    expect(Item?.hits).toBe(1995);
    await dynamo.send(
      new UpdateCommand({
        TableName: suite.runtime.env.RATE_TABLE,
        Key: counter,
        UpdateExpression: 'SET hits = :hits',
        ExpressionAttributeValues: { ':hits': 0 },
      }),
    );
  });
});
