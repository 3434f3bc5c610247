/**
 * A local server with stand-ins for every upstream, seeded with a workspace, for fuzzing: every
 * request that passes validation does its real work without leaving the machine.
 */
import sharp from 'sharp';
import * as admin from '#shared/services/identity-admin.ts';
import { connect } from '#infra/admin/connection.ts';
import type { FuzzContext } from './fuzz.ts';
import { startTestRuntime } from './local.ts';
import { startMediaUpstream } from './media-upstream.ts';
import { startTargetPages } from './target-pages.ts';
import { startStub, tweetFixture } from './upstreams.ts';

const TWEET_ID = '1641086480675225601';
const SETTINGS = ['UNSAFE_TEST_LOOPBACK_PORTS', 'UNSAFE_TEST_MEDIA_HOSTS', 'UNSAFE_TEST_MEDIA_CA_FILE', 'TWEET_UPSTREAM_URL'];

export interface FuzzEnvironment {
  baseUrl: string;
  context: FuzzContext;
  /** Stops everything; fails when the runtime's answers broke the contract or leaked a secret. */
  stop(): Promise<void>;
}

export async function startFuzzEnvironment(): Promise<FuzzEnvironment> {
  const pages = await startTargetPages();
  const tweets = await startStub((req) =>
    req.url?.includes(`id=${TWEET_ID}&`) ? { headers: { 'content-type': 'application/json' }, body: tweetFixture(TWEET_ID) } : { status: 404, body: '{}' },
  );
  const media = await startMediaUpstream();
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#36c' } })
    .png()
    .toBuffer();
  for (const url of ['https://pbs.twimg.com/media/fuzz.png', 'https://video.twimg.com/fuzz.mp4']) {
    media.on(url, { headers: { 'content-type': url.endsWith('.png') ? 'image/png' : 'video/mp4', 'content-length': String(png.length) }, body: png });
  }
  Object.assign(process.env, media.env, {
    UNSAFE_TEST_LOOPBACK_PORTS: `${media.env.UNSAFE_TEST_LOOPBACK_PORTS},${pages.port},${tweets.port}`,
    TWEET_UPSTREAM_URL: tweets.url,
  });
  const runtime = await startTestRuntime();
  const db = connect(runtime.env);
  const deps = { store: db.store };
  await admin.createUser(deps, { email: 'fuzz@example.com', name: 'Fuzz' });
  const { organization } = await admin.createOrganization(deps, { name: 'Fuzz', plan: 'pro', ownerUserId: 'fuzz@example.com' });
  const context: FuzzContext = {
    tweetIds: [TWEET_ID, '20', '99999999999999999999'],
    mediaHosts: true,
    pageOrigin: pages.origin,
    organizationId: organization.organizationId,
    apiKey: (await admin.issueApiKey(deps, { organizationId: organization.organizationId, name: 'fuzz' })).key,
    sessionCookie: `easel.session_token=${(await admin.createSession(deps, { user: 'fuzz@example.com', organizationId: organization.organizationId })).token}`,
    internalSecret: runtime.env.INTERNAL_SECRET,
  };
  db.close();
  return {
    baseUrl: runtime.url,
    context,
    stop: async () => {
      try {
        await runtime.dispose();
      } finally {
        await Promise.all([pages.close(), tweets.close(), media.close()]);
        for (const name of SETTINGS) delete process.env[name];
      }
    },
  };
}
