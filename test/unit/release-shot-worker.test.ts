/**
 * The shot worker's rule with plain inputs: what it does with each delivery of a message (at least
 * once, some dying half-way), and what changed between two pictures.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { NotFoundError, UpstreamUnavailableError } from '#shared/errors.ts';
import type { ShotMessage } from '#shared/schemas/shots.ts';
import { comparePictures } from '#shared/services/shots/compare.ts';
import { takeShot, type ShotWorkerDeps } from '#shared/services/shots/take-shot.ts';
import type { ShotItem } from '#shared/store/shots.ts';

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
