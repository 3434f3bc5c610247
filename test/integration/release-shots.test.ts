/**
 * A release's shots end to end on the local runtime (issue 44): queued by the API, taken by the
 * shot worker from the embedded queue, captured by the real Chromium from local pages, stored as
 * assets of the workspace, compared with the previous release.
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedEnvelope, waitFor } from '../support/expectations.ts';
import { readPixels } from '../support/images.ts';
import { collectedLogLines } from '../support/secret-audit.ts';
import { BOX, GREEN } from '../support/shot-pages.ts';
import { VIEWPORT, queued, useShotSuite } from '../support/shot-suite.ts';

const kit = useShotSuite();
const { suite, api, createRelease, settled, download } = kit;
let sqs: SQSClient;

beforeAll(() => {
  sqs = new SQSClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, endpoint: suite.runtime.env.SQS_ENDPOINT });
});
afterAll(() => sqs?.destroy());

describe('POST /api/v1/releases/{releaseId}/shots: the worker', () => {
  let releaseId: string;
  let plainAssetId: string;

  it('answers 202 with the run, captures each shot into the workspace, and fails only the shot whose page fails, with its envelope', async () => {
    // Prepare
    releaseId = await createRelease(kit.fixtures.a);
    const plain = `${suite.pages.app}/plain`;

    // Act
    const run = await api(kit.fixtures.a, `/api/v1/releases/${releaseId}/shots`, {
      shots: [
        { name: 'plain', url: plain },
        { name: 'missing', url: plain, selector: '#missing' },
      ],
    });
    const shots = await settled(kit.fixtures.a, releaseId);

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
    expect((await readPixels(await download(kit.fixtures.a, plainAssetId))).count(GREEN)).toBe(VIEWPORT);
    expect(await kit.shotAssets(kit.fixtures.a, releaseId)).toEqual([
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
    const before = await kit.shotAssets(kit.fixtures.a, releaseId);
    const shot = (await api(kit.fixtures.a, `/api/v1/releases/${releaseId}/shots`)).body.shots.find((item: { name: string }) => item.name === 'plain');
    const body = JSON.stringify({ workspaceId: kit.fixtures.a.workspaceId, releaseId, name: 'plain', runId: shot.runId });

    // Act
    const sent = await sqs.send(new SendMessageCommand({ QueueUrl: suite.runtime.env.SHOT_QUEUE_URL, MessageBody: body }));
    const line = await waitFor(async () => collectedLogLines().find((text) => text.includes(sent.MessageId!) && text.includes('"msg":"release shot"')));

    // Assess: the worker found it finished and changed nothing
    expect(JSON.parse(line)).toMatchObject({ outcome: 'finished', shot: 'plain' });
    expect(await kit.shotAssets(kit.fixtures.a, releaseId)).toEqual(before);
    expect((await api(kit.fixtures.a, `/api/v1/releases/${releaseId}/shots`)).body.shots).toContainEqual(shot);
  }, 60_000);

  it("photographs the release's sourceUrls when no shots are given, once per device of the matrix", async () => {
    // Prepare
    const url = `${suite.pages.app}/plain`;
    const id = await createRelease(kit.fixtures.a, [url]);
    const base = `127.0.0.1-${suite.pages.port}-plain`;

    // Act
    const run = await api(kit.fixtures.a, `/api/v1/releases/${id}/shots`, { matrix: { deviceTypes: ['desktop', 'mobile'] } });
    const shots = await settled(kit.fixtures.a, id);

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

describe('release shots: what changed since the previous release', () => {
  it('counts the pixels of the one region that changed, stores the diff picture, and leaves masked regions out', async () => {
    // Prepare: the page's box is blue in the first release
    const url = `${suite.pages.app}/changing`;
    suite.pages.box.colour = 'rgb(0,0,255)';
    const first = await createRelease(kit.fixtures.a);
    await api(kit.fixtures.a, `/api/v1/releases/${first}/shots`, { shots: [{ name: 'home', url }] });
    const [baseline] = (await settled(kit.fixtures.a, first)).shots;

    // Act: yellow in the second release; blue again, masked, in the third
    suite.pages.box.colour = 'rgb(255,200,0)';
    const second = await createRelease(kit.fixtures.a);
    await api(kit.fixtures.a, `/api/v1/releases/${second}/shots`, { shots: [{ name: 'home', url }] });
    const [changed] = (await settled(kit.fixtures.a, second)).shots;
    suite.pages.box.colour = 'rgb(0,0,255)';
    const third = await createRelease(kit.fixtures.a);
    await api(kit.fixtures.a, `/api/v1/releases/${third}/shots`, { shots: [{ name: 'home', url, mask: { rects: [BOX] } }] });
    const [masked] = (await settled(kit.fixtures.a, third)).shots;

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
    const diff = await readPixels(await download(kit.fixtures.a, changed.changes.diffAssetId));
    expect(diff.count([255, 0, 0])).toBe(area);
    expect(diff.at(BOX.x + 1, BOX.y + 1)).toEqual([255, 0, 0]);
    // Assess: masked, the same change counts for nothing; the baseline is the second release's picture
    expect(masked.changes).toMatchObject({ baseline: { releaseId: second, assetId: changed.assetId }, pixels: 0, ratio: 0 });
  }, 180_000);
});
