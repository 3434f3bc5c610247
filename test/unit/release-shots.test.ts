/**
 * The rules of release shots with plain inputs: which shots a run takes, whose login a shot gets,
 * what the worker does with each delivery of a message (at least once, some dying half-way), and
 * what changed between two pictures.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { NotFoundError, UpstreamUnavailableError } from '#shared/errors.ts';
import type { Release } from '#shared/schemas/releases.ts';
import type { SourceApp } from '#shared/schemas/source-apps.ts';
import type { ShotMessage } from '#shared/schemas/shots.ts';
import { comparePictures } from '#shared/services/shots/compare.ts';
import { loginFor } from '#shared/services/shots/login.ts';
import { SCREEN_PX, nameOfUrl, planShots } from '#shared/services/shots/plan.ts';
import { TILE_PX } from '#shared/services/capture/photograph.ts';
import { takeShot, type ShotWorkerDeps } from '#shared/services/shots/take-shot.ts';
import { startShotRun } from '#shared/services/shots/runs.ts';
import { createRateLimiter } from '#shared/rate-limiter.ts';
import type { ShotItem } from '#shared/store/shots.ts';

const release = (sourceUrls: string[] = []): Release => ({
  id: '01900000-0000-7000-8000-000000000002',
  title: 'R',
  benefitStatement: 'B',
  sourceUrls,
  createdAt: '2026-11-01T00:00:00.000Z',
});

describe('planShots', () => {
  it("names the release's sourceUrls after host and path, numbering those that would share a name", () => {
    // Act
    const shots = planShots(release(['https://app.example.com/pricing?a=1', 'https://app.example.com/pricing?a=2', 'https://example.com/']), undefined);

    // Assess
    expect(shots.map((shot) => [shot.name, shot.from, shot.deviceType, shot.colorScheme])).toEqual([
      ['app.example.com-pricing', 'sourceUrls[0]', 'desktop', 'light'],
      ['app.example.com-pricing-2', 'sourceUrls[1]', 'desktop', 'light'],
      ['example.com', 'sourceUrls[2]', 'desktop', 'light'],
    ]);
  });

  it('multiplies every shot by the matrix, naming each copy by the dimensions the matrix gives', () => {
    // Act
    const shots = planShots(release(), {
      shots: [{ name: 'home', url: 'https://example.com/', deviceType: 'desktop', colorScheme: 'light', threshold: 0.1 } as never],
      matrix: { deviceTypes: ['desktop', 'mobile'], colorSchemes: ['dark'] },
    });

    // Assess
    expect(shots.map((shot) => [shot.name, shot.deviceType, shot.colorScheme])).toEqual([
      ['home-desktop-dark', 'desktop', 'dark'],
      ['home-mobile-dark', 'mobile', 'dark'],
    ]);
  });

  it.each([
    [
      'a name used twice, naming both shots',
      { shots: [shot('a'), shot('b'), shot('a')] },
      'Duplicate shot name a',
      'shots[2].name: "a" is also the name of shots[0]; give each shot its own name.',
    ],
    [
      'a viewport larger than a screen at its scale, naming the shot',
      { shots: [shot('a'), { ...shot('b'), viewport: { width: 3840, height: 2160 }, scale: 3 }] },
      'Invalid shots[1].viewport',
      'shots[1].viewport: 3840×2160 at scale 3 (desktop) is 11520×6480 image pixels; a screen is at most 8192 pixels a side and 31457280 in all.',
    ],
  ])('refuses %s with 400', (_case, request, message, hint) => {
    // Act + Assess
    expect(() => planShots(release(), request as never)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_request', message, hint }));
  });

  it("checks viewports against the capture's own largest picture of the screen", () => {
    expect(SCREEN_PX).toBe(TILE_PX);
  });

  it('keeps a name a URL cannot spell', () => {
    expect(nameOfUrl('https://[::1]:8080/')).toBe('1-8080');
  });
});

describe('startShotRun', () => {
  function runDeps(options: { unsent?: (messages: ShotMessage[]) => ShotMessage[]; known?: boolean; used?: number } = {}) {
    const written: ShotItem[] = [];
    const failed: { name: string; code: string }[] = [];
    const sent: ShotMessage[] = [];
    const counted: number[] = options.used === undefined ? [] : [options.used];
    const deps = {
      releases: { get: async () => (options.known === false ? undefined : release()) },
      shots: {
        putQueued: async (_ws: string, items: readonly ShotItem[]) => void written.push(...items),
        finishFailed: async (at: ShotMessage, _when: string, error: { code: string }) => {
          failed.push({ name: at.name, code: error.code });
          return true;
        },
      },
      queue: {
        enqueue: async (messages: readonly ShotMessage[]) => {
          sent.push(...messages);
          return options.unsent?.([...messages]) ?? [];
        },
      },
      limiter: createRateLimiter({
        incrementBelow: async (_key, limit, _expires, amount = 1) => {
          const total = (counted.at(-1) ?? 0) + amount;
          if (total > limit) return undefined;
          counted.push(total);
          return total;
        },
      }),
      publicBaseUrl: 'https://api.example.com',
      now: () => new Date(Date.UTC(2026, 10, 22, 12, 0, 0)),
    };
    return { deps, written, failed, sent, counted };
  }
  const input = (shots: ReturnType<typeof shot>[], plan: 'free' | 'pro' = 'pro') =>
    ({ workspaceId: 'ws_1', plan, releaseId: release().id, request: { shots } }) as never;

  it('queues one message per shot, each naming its shot and run, after writing them queued with asset ids of their own', async () => {
    // Prepare
    const { deps, written, sent } = runDeps();

    // Act
    const run = await startShotRun(deps, input([shot('a'), shot('b')]));

    // Assess
    expect(sent).toEqual(['a', 'b'].map((name) => ({ workspaceId: 'ws_1', releaseId: release().id, name, runId: run.runId })));
    expect(written.map((item) => [item.name, item.status, item.runId])).toEqual([
      ['a', 'queued', run.runId],
      ['b', 'queued', run.runId],
    ]);
    expect(new Set(written.flatMap((item) => [item.pictureAssetId, item.diffAssetId])).size).toBe(4);
  });

  it.each([
    ['an unknown release', { known: false }, 404, []],
    ['a run past the plan’s monthly shots', { used: 95 }, 429, [95]],
  ] as const)('writes, counts and queues nothing for %s', async (_case, options, status, count) => {
    // Prepare: free's 100 shots a month
    const { deps, written, sent, counted } = runDeps(options);

    // Act
    const refused = await startShotRun(deps, input(['a', 'b', 'c', 'd', 'e', 'f'].map(shot), 'free')).catch((error: unknown) => error);

    // Assess
    expect(refused).toMatchObject({ status });
    expect([written, sent, counted]).toEqual([[], [], count]);
  });

  it('answers 503 and marks failed the shots whose messages the queue refused, leaving the sent ones queued', async () => {
    // Prepare
    const { deps, failed, written } = runDeps({ unsent: (messages) => messages.slice(1) });

    // Act
    const refused = await startShotRun(deps, input([shot('a'), shot('b'), shot('c')])).catch((error: unknown) => error);

    // Assess
    expect(refused).toMatchObject({ status: 503, code: 'upstream_unavailable' });
    expect(written).toHaveLength(3);
    expect(failed).toEqual([
      { name: 'b', code: 'upstream_unavailable' },
      { name: 'c', code: 'upstream_unavailable' },
    ]);
  });
});

function shot(name: string) {
  return { name, url: 'https://example.com/', deviceType: 'desktop', colorScheme: 'light', threshold: 0.1 };
}

const app = (id: string, createdAt: string, allowedHosts: string[], secretReference?: string): SourceApp => ({
  id,
  name: `App ${id}`,
  allowedHosts,
  provider: 'generic',
  createdAt,
  ...(secretReference ? { secretReference } : {}),
});

describe('loginFor', () => {
  const login = JSON.stringify({ headers: { 'X-Pass': 'header-secret' }, cookies: [{ name: 'sid', value: 'cookie-secret' }] });
  const deps = (apps: SourceApp[], secrets: Record<string, string>) => ({
    sourceApps: { list: async () => apps },
    secrets: { read: async (reference: string) => secrets[reference], describe: (reference: string) => `the test store, as ${reference}` },
  });

  it("takes the login of the most recently registered app with a secret that lists the URL's origin, scheme and port included", async () => {
    // Prepare
    const apps = [
      app('old', '2026-01-01T00:00:00Z', ['https://app.example.com'], 'old-login'),
      app('new', '2026-02-01T00:00:00Z', ['https://app.example.com/'], 'new-login'),
      app('none', '2026-03-01T00:00:00Z', ['https://app.example.com']),
      app('http', '2026-04-01T00:00:00Z', ['http://app.example.com'], 'http-login'),
    ];
    const store = deps(apps, { 'old-login': login, 'new-login': login, 'http-login': login });

    // Act
    const found = await loginFor(store, 'ws', 'https://app.example.com/dashboard?x=1');
    const elsewhere = await loginFor(store, 'ws', 'https://app.example.com:8443/');

    // Assess
    expect(found).toEqual({ sourceAppId: 'new', credentials: { headers: { 'X-Pass': 'header-secret' }, cookies: [{ name: 'sid', value: 'cookie-secret' }] } });
    expect(elsewhere).toBeUndefined();
  });

  it('fails with 404 naming the app and the secret when the secret is missing', async () => {
    // Act
    const failure = await loginFor(deps([app('a', '2026-01-01T00:00:00Z', ['https://x.example'], 'gone')], {}), 'ws', 'https://x.example/').catch(
      (error) => error,
    );

    // Assess
    expect(failure).toBeInstanceOf(NotFoundError);
    expect(failure).toMatchObject({
      message: 'Login secret not found',
      hint: 'Source app App a (a) lists https://x.example and names the secret gone, which is missing: put it in the test store, as gone, then run the shot again.',
    });
  });

  it('fails with 400 naming where a malformed secret is wrong, never repeating its values', async () => {
    // Prepare
    const bad = JSON.stringify({ cookies: [{ name: 'sid', value: 'has space-secret' }] });

    // Act
    const failure = await loginFor(deps([app('a', '2026-01-01T00:00:00Z', ['https://x.example'], 'bad')], { bad }), 'ws', 'https://x.example/').catch(
      (error) => error,
    );

    // Assess
    expect(failure).toMatchObject({ status: 400, message: 'Login secret unusable', hint: expect.stringContaining('cookies[0].value is not valid') });
    expect(JSON.stringify(failure.hint)).not.toContain('has space');
  });

  it('claims no login when the secret holds none (only a webhook key)', async () => {
    // Act + Assess
    expect(
      await loginFor(deps([app('a', '2026-01-01T00:00:00Z', ['https://x.example'], 'hook')], { hook: '{"webhookSecret":"k"}' }), 'ws', 'https://x.example/'),
    ).toBeUndefined();
  });
});

async function png(width: number, height: number, paint: { x: number; y: number; width: number; height: number; colour: string }[] = []): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: '#ffffff' } })
    .composite(
      paint.map((box) => ({
        input: { create: { width: box.width, height: box.height, channels: 4 as const, background: box.colour } },
        left: box.x,
        top: box.y,
      })),
    )
    .png()
    .toBuffer();
}

async function redPixels(picture: Buffer): Promise<number> {
  const { data } = await sharp(picture).raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i] === 255 && data[i + 1] === 0 && data[i + 2] === 0) count += 1;
  return count;
}

describe('comparePictures', () => {
  it('counts exactly the pixels of the region that changed and paints them red in the diff', async () => {
    // Prepare
    const before = await png(400, 300, [{ x: 50, y: 40, width: 30, height: 20, colour: '#0000ff' }]);
    const after = await png(400, 300, [{ x: 50, y: 40, width: 30, height: 20, colour: '#ffc800' }]);

    // Act
    const result = await comparePictures(before, after, { threshold: 0.1 });

    // Assess
    expect(result).toEqual({ ratio: 600 / 120_000, pixels: 600, width: 400, height: 300, sizeChanged: false, diffPng: expect.any(Buffer) });
    expect(await redPixels(result.diffPng)).toBe(600);
  });

  it('compares pictures of different sizes over the larger area: the overlap pixel by pixel, the rest all changed', async () => {
    // Prepare: the page grew 50 px taller, nothing else changed
    const before = await png(200, 100);
    const after = await png(200, 150);

    // Act
    const result = await comparePictures(before, after, { threshold: 0.1 });

    // Assess
    expect(result).toMatchObject({ pixels: 200 * 50, ratio: (200 * 50) / (200 * 150), width: 200, height: 150, sizeChanged: true });
    expect(await sharp(result.diffPng).metadata()).toMatchObject({ width: 200, height: 150 });
    expect(await redPixels(result.diffPng)).toBe(200 * 50);
  });

  it('leaves masked rectangles out, and a change below the threshold uncounted', async () => {
    // Prepare
    const before = await png(100, 100, [{ x: 10, y: 10, width: 10, height: 10, colour: '#000000' }]);
    const after = await png(100, 100, [
      { x: 10, y: 10, width: 10, height: 10, colour: '#ff0000' },
      { x: 60, y: 60, width: 10, height: 10, colour: '#fafafa' },
    ]);

    // Act
    const masked = await comparePictures(before, after, { threshold: 0.1, masks: [{ x: 5, y: 5, width: 20, height: 20 }] });
    const exact = await comparePictures(before, after, { threshold: 0, masks: [{ x: 5, y: 5, width: 20, height: 20 }] });

    // Assess
    expect(masked.pixels).toBe(0);
    expect(exact.pixels).toBe(100);
  });
});

/** The shot store's transitions in memory, as the conditional writes of store/shots.ts make them. */
function memoryShots(item: ShotItem) {
  const items = new Map([[item.name, { ...item }]]);
  const calls: string[] = [];
  let failNextFinish: Error | undefined;
  const at = (name: string) => items.get(name)!;
  return {
    items,
    calls,
    failNextFinish: (error: Error) => {
      failNextFinish = error;
    },
    store: {
      get: async (_ws: string, _release: string, name: string) => (items.has(name) ? { ...at(name) } : undefined),
      claim: async (shotAt: ShotMessage, claim: { now: number; leaseUntil: number; startedAt: string }) => {
        const current = at(shotAt.name);
        const free = current.status === 'queued' || (current.status === 'running' && (current.leaseUntil ?? 0) < claim.now);
        if (current.runId !== shotAt.runId || !free) return undefined;
        Object.assign(current, { status: 'running', leaseUntil: claim.leaseUntil, startedAt: claim.startedAt, attempts: (current.attempts ?? 0) + 1 });
        return { ...current };
      },
      finishDone: async (shotAt: ShotMessage, finishedAt: string, result: object) => {
        calls.push('finishDone');
        if (failNextFinish) {
          const error = failNextFinish;
          failNextFinish = undefined;
          throw error;
        }
        const current = at(shotAt.name);
        if (current.runId !== shotAt.runId || current.status !== 'running') return false;
        Object.assign(current, { status: 'done', finishedAt, ...result, leaseUntil: undefined });
        return true;
      },
      finishFailed: async (shotAt: ShotMessage, finishedAt: string, error: object) => {
        const current = at(shotAt.name);
        if (current.runId !== shotAt.runId || current.status !== 'running') return false;
        Object.assign(current, { status: 'failed', finishedAt, error, leaseUntil: undefined });
        return true;
      },
      requeue: async (shotAt: ShotMessage) => {
        calls.push('requeue');
        const current = at(shotAt.name);
        if (current.runId === shotAt.runId && current.status === 'running') Object.assign(current, { status: 'queued', leaseUntil: undefined });
      },
      ofReleases: async () => [],
    },
  };
}

const MESSAGE: ShotMessage = {
  workspaceId: 'ws_1',
  releaseId: '01900000-0000-7000-8000-000000000002',
  name: 'home',
  runId: '01900000-0000-7000-8000-0000000000aa',
};

function queuedShot(): ShotItem {
  return {
    releaseId: MESSAGE.releaseId,
    name: 'home',
    runId: MESSAGE.runId,
    status: 'queued',
    queuedAt: '2026-11-22T12:00:00.000Z',
    url: 'https://example.com/',
    deviceType: 'desktop',
    colorScheme: 'light',
    options: {} as ShotItem['options'],
    threshold: 0.1,
    pictureAssetId: '0b0d7f1e-0000-4000-8000-000000000001',
    diffAssetId: '0b0d7f1e-0000-4000-8000-000000000002',
  };
}

async function worker(capture: () => Promise<unknown>) {
  const shots = memoryShots(queuedShot());
  const objects = new Map<string, Uint8Array>();
  const assets = new Map<string, Record<string, unknown>>();
  const picture = await png(64, 48);
  let clock = Date.UTC(2026, 10, 22, 12, 0, 0);
  const deps = {
    shots: shots.store,
    releases: { list: async () => [] },
    assets: {
      get: async (_ws: string, assetId: string) => assets.get(assetId),
      putMade: async (_ws: string, asset: Record<string, unknown>) => {
        assets.set(asset.assetId as string, asset);
        return true;
      },
    },
    objects: { put: async (key: string, bytes: Uint8Array) => void objects.set(key, bytes), read: async (key: string) => objects.get(key) },
    sourceApps: { list: async () => [] },
    secrets: undefined,
    capture: {
      capture: async () => {
        await capture();
        return { png: picture, url: 'https://example.com/', cached: false, strategy: 'local-chromium', deviceType: 'desktop', colorScheme: 'light' };
      },
    },
    leaseMs: 90_000,
    now: () => new Date(clock),
  } as unknown as ShotWorkerDeps;
  return { deps, shots, objects, assets, advance: (ms: number) => (clock += ms) };
}

const delivery = (receiveCount: number) => ({ receiveCount, maxReceiveCount: 3 });

describe('takeShot', () => {
  it('stores one asset for the shot however often it is delivered, even when a delivery dies after storing it', async () => {
    // Prepare: the first delivery stores the picture, then cannot record the shot done
    const { deps, shots, objects, assets } = await worker(async () => undefined);
    shots.failNextFinish(new UpstreamUnavailableError('The shot store is unavailable'));

    // Act
    const first = await takeShot(deps, MESSAGE, delivery(1)).catch((error: unknown) => error);
    const second = await takeShot(deps, MESSAGE, delivery(2));
    const third = await takeShot(deps, MESSAGE, delivery(3));

    // Assess: retried once, done on the second, the third a no-op; one object, one record
    expect(first).toBeInstanceOf(UpstreamUnavailableError);
    expect(shots.calls).toEqual(['finishDone', 'requeue', 'finishDone']);
    expect(second).toEqual({ outcome: 'done', attempts: 2 });
    expect(third).toEqual({ outcome: 'finished' });
    expect([...objects.keys()]).toEqual(['workspaces/ws_1/assets/0b0d7f1e-0000-4000-8000-000000000001']);
    expect([...assets.keys()]).toEqual(['0b0d7f1e-0000-4000-8000-000000000001']);
    expect(shots.items.get('home')).toMatchObject({ status: 'done', assetId: '0b0d7f1e-0000-4000-8000-000000000001', width: 64, height: 48, attempts: 2 });
  });

  it("fails the shot at the first try with the page's own error, as its envelope", async () => {
    // Prepare
    const { deps, shots } = await worker(async () => {
      throw new NotFoundError('No element matches the selector', 'Check the selector.');
    });

    // Act
    const result = await takeShot(deps, MESSAGE, delivery(1));

    // Assess
    expect(result).toEqual({ outcome: 'failed', attempts: 1 });
    expect(shots.items.get('home')).toMatchObject({
      status: 'failed',
      error: { status: 404, code: 'not_found', message: 'No element matches the selector', hint: 'Check the selector.' },
    });
  });

  it('has a dependency failure delivered again while tries remain, and fails the shot with it on the last', async () => {
    // Prepare
    const { deps, shots } = await worker(async () => {
      throw new UpstreamUnavailableError('The browser could not start');
    });

    // Act
    const early = await takeShot(deps, MESSAGE, delivery(2)).catch((error: unknown) => error);
    const queuedAgain = shots.items.get('home')!.status;
    const last = await takeShot(deps, MESSAGE, delivery(3));

    // Assess
    expect(early).toBeInstanceOf(UpstreamUnavailableError);
    expect(queuedAgain).toBe('queued');
    expect(last).toEqual({ outcome: 'failed', attempts: 2 });
    expect(shots.items.get('home')?.error).toMatchObject({ status: 503, code: 'upstream_unavailable' });
  });

  it('fails, saying so, a shot whose earlier worker died on the last delivery, and leaves one a live worker holds', async () => {
    // Prepare: a worker claimed the shot and was never heard of again
    let started = 0;
    const { deps, shots, advance } = await worker(async () => {
      started += 1;
    });
    await shots.store.claim(MESSAGE, { now: Date.UTC(2026, 10, 22, 12, 0, 0), leaseUntil: Date.UTC(2026, 10, 22, 12, 1, 30), startedAt: 'then' });

    // Act
    const held = await takeShot(deps, MESSAGE, delivery(2));
    advance(6 * 60_000);
    const last = await takeShot(deps, MESSAGE, delivery(3));

    // Assess
    expect(held).toEqual({ outcome: 'held' });
    expect(last).toEqual({ outcome: 'failed', attempts: 2 });
    expect(started).toBe(0);
    expect(shots.items.get('home')?.error).toMatchObject({ status: 500, code: 'upstream_failed', hint: expect.stringContaining('stopped without an answer') });
  });

  it('does nothing with the message of a run another run replaced', async () => {
    // Prepare
    const { deps, shots } = await worker(async () => undefined);

    // Act
    const result = await takeShot(deps, { ...MESSAGE, runId: '01900000-0000-7000-8000-0000000000bb' }, delivery(1));

    // Assess
    expect(result).toEqual({ outcome: 'superseded' });
    expect(shots.items.get('home')?.status).toBe('queued');
  });
});
