/**
 * Property: whatever a client sends to any row of the route table (or to no row), the answer is
 * the row's documented success or the error envelope with a 4xx status and a contract code; never
 * a 5xx, never later than the route's time-out; and the server keeps answering. Upstreams are
 * local stand-ins, so every request that passes validation does its real work. A longer run:
 * `npm run fuzz`. A failure prints fast-check's seed and path; FUZZ_SEED replays it.
 */
import sharp from 'sharp';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '#shared/services/identity-admin.ts';
import { connect, type Connection } from '#infra/admin/connection.ts';
import { freshClient } from '../support/client.ts';
import { requestArbitrary, send, Tally, timeLimitMs, violation, type FuzzContext } from '../support/fuzz.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { startMediaUpstream, type MediaUpstream } from '../support/media-upstream.ts';
import { startTargetPages, type TargetPages } from '../support/target-pages.ts';
import { startStub, tweetFixture, type StubServer } from '../support/upstreams.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const TWEET_ID = '1641086480675225601';

let pages: TargetPages;
let tweets: StubServer;
let media: MediaUpstream;
let runtime: TestRuntime;
let db: Connection;
const context: FuzzContext = { tweetIds: [TWEET_ID, '20', '99999999999999999999'], mediaHosts: true };

beforeAll(async () => {
  pages = await startTargetPages();
  tweets = await startStub((req) =>
    req.url?.includes(`id=${TWEET_ID}&`) ? { headers: { 'content-type': 'application/json' }, body: tweetFixture(TWEET_ID) } : { status: 404, body: '{}' },
  );
  media = await startMediaUpstream();
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#36c' } }).png().toBuffer();
  for (const url of ['https://pbs.twimg.com/media/fuzz.png', 'https://video.twimg.com/fuzz.mp4']) {
    media.on(url, { headers: { 'content-type': url.endsWith('.png') ? 'image/png' : 'video/mp4', 'content-length': String(png.length) }, body: png });
  }
  Object.assign(process.env, media.env, {
    UNSAFE_TEST_LOOPBACK_PORTS: `${media.env.UNSAFE_TEST_LOOPBACK_PORTS},${pages.port},${tweets.port}`,
    TWEET_UPSTREAM_URL: tweets.url,
  });
  runtime = await startTestRuntime();
  db = connect(runtime.env);
  const deps = { store: db.store };
  await admin.createUser({ email: 'fuzz@example.com', name: 'Fuzz' }, deps);
  const { organization } = await admin.createOrganization({ name: 'Fuzz', plan: 'pro', ownerUserId: 'fuzz@example.com' }, deps);
  context.organizationId = organization.organizationId;
  context.apiKey = (await admin.issueApiKey({ organizationId: organization.organizationId, name: 'fuzz' }, deps)).key;
  context.sessionCookie = `easel.session_token=${(await admin.createSession({ user: 'fuzz@example.com', organizationId: organization.organizationId }, deps)).token}`;
  context.internalSecret = runtime.env.INTERNAL_SECRET;
  context.pageOrigin = pages.origin;
});

afterAll(async () => {
  db?.close();
  await runtime?.dispose();
  await Promise.all([pages?.close(), tweets?.close(), media?.close()]);
  for (const name of ['UNSAFE_TEST_LOOPBACK_PORTS', 'UNSAFE_TEST_MEDIA_HOSTS', 'UNSAFE_TEST_MEDIA_CA_FILE', 'TWEET_UPSTREAM_URL']) delete process.env[name];
});

describe('hostile requests to every row of the route table', () => {
  it(`answer with a documented success or a 4xx envelope, within the route time-out, and never take the server down (${RUNS} requests)`, async () => {
    // Prepare
    const tally = new Tally();

    // Act + Assess: each generated request, from its own address so the capture limit does not hide the rest
    await fc.assert(
      fc.asyncProperty(requestArbitrary(context), async (request) => {
        const limit = timeLimitMs(request);
        const answer = await send(runtime.url, request, { timeoutMs: limit + 2_000, localAddress: freshClient() });
        tally.add(answer);
        expect(violation(request, answer)).toBeUndefined();
        expect(answer.ms).toBeLessThan(limit);
      }),
      { numRuns: RUNS, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
    );

    // Assess: still serving, and the run reached both successes and refusals
    const after = await fetch(`${runtime.url}/llms.txt`);
    expect(after.status).toBe(200);
    const statuses = [...tally.counts.keys()];
    expect(statuses.some((key) => key.startsWith('2'))).toBe(true);
    expect(statuses.some((key) => key.startsWith('4'))).toBe(true);
  }, 300_000);
});
