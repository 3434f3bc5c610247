/**
 * Who release shots reach and who may run them (issue 44): the login of a source app's secret
 * sent to its hosts only, a missing secret, and the refusals that queue nothing (400 naming the
 * shot, 404, 403 without the scope, 429 over the month's quota).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { runAdmin } from '#infra/admin/cli.ts';
import { call } from '../support/client.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { readPixels } from '../support/images.ts';
import { collectedLogLines } from '../support/secret-audit.ts';
import { GREEN, LOGIN, RED } from '../support/shot-pages.ts';
import { VIEWPORT, useShotSuite } from '../support/shot-suite.ts';

const kit = useShotSuite();
const { suite, api, createRelease, settled, download } = kit;

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
    const app = await api(kit.fixtures.a, '/api/v1/source-apps', { name: 'App', allowedHosts: [suite.pages.app], secretReference: 'shots-login' });
    expect(app.status).toBe(201);
    const releaseId = await createRelease(kit.fixtures.a);
    const hitsBefore = suite.pages.hits.length;

    // Act
    const run = await api(kit.fixtures.a, `/api/v1/releases/${releaseId}/shots`, {
      shots: [
        { name: 'app', url: `${suite.pages.app}/gated` },
        { name: 'other', url: `${suite.pages.other}/gated` },
      ],
    });
    const shots = await settled(kit.fixtures.a, releaseId);

    // Assess: signed in on the app's origin only
    expect(run.status).toBe(202);
    const [appShot, otherShot] = shots.shots;
    expect(appShot).toMatchObject({ name: 'app', status: 'done', login: { sourceAppId: app.body.id } });
    expect(otherShot).toMatchObject({ name: 'other', status: 'done' });
    expect(otherShot.login).toBeUndefined();
    expect((await readPixels(await download(kit.fixtures.a, appShot.assetId))).count(GREEN)).toBe(VIEWPORT);
    expect((await readPixels(await download(kit.fixtures.a, otherShot.assetId))).count(RED)).toBe(VIEWPORT);
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
    await api(kit.fixtures.b, '/api/v1/source-apps', { name: 'No secret', allowedHosts: [suite.pages.app], secretReference: 'never-stored' });
    const releaseId = await createRelease(kit.fixtures.b);

    // Act
    await api(kit.fixtures.b, `/api/v1/releases/${releaseId}/shots`, { shots: [{ name: 'app', url: `${suite.pages.app}/gated` }] });
    const shots = await settled(kit.fixtures.b, releaseId);

    // Assess
    expect(shots.shots[0]).toMatchObject({
      name: 'app',
      status: 'failed',
      error: { ...expectedEnvelope(suite.runtime.url, 404, 'not_found'), error: 'Login secret not found', hint: expect.stringContaining('never-stored') },
    });
  }, 60_000);
});

describe('POST /api/v1/releases/{releaseId}/shots: refusals queue nothing', () => {
  const plain = () => `${suite.pages.app}/plain`;
  const nothingQueued = async (releaseId: string) =>
    expect((await api(kit.fixtures.a, `/api/v1/releases/${releaseId}/shots`)).body).toEqual({
      releaseId,
      counts: { queued: 0, running: 0, done: 0, failed: 0 },
      shots: [],
    });

  it('answers 400 naming the shot and field that is invalid', async () => {
    // Prepare
    const releaseId = await createRelease(kit.fixtures.a);
    const shots = [0, 1, 2, 3].map((index) => ({ name: `s${index}`, url: plain(), ...(index === 3 ? { viewport: { width: 100, height: 800 } } : {}) }));

    // Act
    const response = await api(kit.fixtures.a, `/api/v1/releases/${releaseId}/shots`, { shots });

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
    const releaseId = await createRelease(kit.fixtures.a);

    // Act
    const response = await api(kit.fixtures.a, `/api/v1/releases/${releaseId}/shots`, body);

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ ...expectedEnvelope(suite.runtime.url, 400, 'invalid_request'), error, message: error });
    await nothingQueued(releaseId);
  });

  it('answers 404 for a release of another workspace', async () => {
    // Prepare
    const releaseId = await createRelease(kit.fixtures.b);

    // Act
    const run = await api(kit.fixtures.a, `/api/v1/releases/${releaseId}/shots`, { shots: [{ name: 'x', url: plain() }] });
    const read = await api(kit.fixtures.a, `/api/v1/releases/${releaseId}/shots`);

    // Assess
    expect(run.status).toBe(404);
    expect(run.body).toEqual({ ...expectedEnvelope(suite.runtime.url, 404, 'not_found'), error: 'Release not found', message: 'Release not found' });
    expect(read.status).toBe(404);
  });

  it('answers 403 to a key without the release:capture scope', async () => {
    // Prepare
    const releaseId = await createRelease(kit.fixtures.a);
    const key = await kit.fixtures.keyWithout('release:capture');

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
    const counter = { pk: `quota#shots:month#${kit.fixtures.a.workspaceId}#${month}` };
    const setHits = (hits: number) =>
      kit.dynamo.send(
        new UpdateCommand({
          TableName: suite.runtime.env.RATE_TABLE,
          Key: counter,
          UpdateExpression: 'SET hits = :hits',
          ExpressionAttributeValues: { ':hits': hits },
        }),
      );
    await setHits(1995);
    const releaseId = await createRelease(kit.fixtures.a);
    const shots = Array.from({ length: 6 }, (_, index) => ({ name: `s${index}`, url: plain() }));

    // Act
    const response = await api(kit.fixtures.a, `/api/v1/releases/${releaseId}/shots`, { shots });

    // Assess
    expect(response.status).toBe(429);
    expect(response.body).toEqual({ ...expectedEnvelope(suite.runtime.url, 429, 'workspace_quota_exceeded'), limit: 2000, quota: 'shots:month' });
    expect(response.body.hint).toContain('6 this request needs');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    await nothingQueued(releaseId);
    const { Item } = await kit.dynamo.send(new GetCommand({ TableName: suite.runtime.env.RATE_TABLE, Key: counter, ConsistentRead: true }));
    expect(Item?.hits).toBe(1995);
    await setHits(0);
  });
});
