/** A run of a release's shots, as the route or an intake starts one; ./read.ts reads where each is, ./take-shot.ts captures. */
import { randomUUID } from 'node:crypto';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import type { Plan } from '#shared/identity/plans.ts';
import { uuidv7 } from '#shared/ids.ts';
import type { RateLimiter } from '#shared/rate-limiter.ts';
import type { ShotMessage, ShotRun, ShotRunRequest } from '#shared/schemas/shots.ts';
import { consumeQuota } from '#shared/services/quota.ts';
import { planShots, type PlannedShot } from '#shared/services/shots/plan.ts';
import { failureOf, releaseNotFound, shotView } from '#shared/services/shots/read.ts';
import type { ReleaseStore } from '#shared/store/releases.ts';
import type { ShotQueue } from '#shared/store/shot-queue.ts';
import type { ShotItem, ShotStore } from '#shared/store/shots.ts';

export interface ShotRunDeps {
  releases: Pick<ReleaseStore, 'get'>;
  shots: Pick<ShotStore, 'putQueued' | 'finishFailed'>;
  queue: Pick<ShotQueue, 'enqueue'>;
  limiter: RateLimiter;
  /** The origin of the error envelopes' documentation links. */
  publicBaseUrl: string;
  now?: () => Date;
}

function queuedItem(shot: PlannedShot, releaseId: string, runId: string, queuedAt: string): ShotItem {
  const { from: _from, name, url, deviceType, colorScheme, threshold, mask, ...options } = shot;
  return {
    releaseId,
    name,
    runId,
    status: 'queued',
    queuedAt,
    url,
    deviceType,
    colorScheme,
    options,
    threshold,
    ...(mask ? { mask } : {}),
    pictureAssetId: randomUUID(),
    diffAssetId: randomUUID(),
  };
}

/** One message per shot, counted against `shots:month`; 404, 400 or 429 before any write; a shot the queue refuses is marked failed, then 503. */
export async function startShotRun(
  deps: ShotRunDeps,
  input: { workspaceId: string; plan: Plan; releaseId: string; request: ShotRunRequest },
): Promise<ShotRun> {
  const { workspaceId, releaseId } = input;
  const release = await deps.releases.get(workspaceId, releaseId);
  if (!release) throw releaseNotFound();
  const planned = planShots(release, input.request);
  const now = deps.now?.() ?? new Date();
  await consumeQuota(deps.limiter, { workspaceId, plan: input.plan, quota: 'shots:month', amount: planned.length, now: now.getTime() });

  const runId = uuidv7(now.getTime());
  const createdAt = now.toISOString();
  const items = planned.map((shot) => queuedItem(shot, releaseId, runId, createdAt));
  await deps.shots.putQueued(workspaceId, items);
  const unsent = await deps.queue.enqueue(items.map((item): ShotMessage => ({ workspaceId, releaseId, name: item.name, runId })));
  if (unsent.length > 0) {
    const stored = failureOf(new UpstreamUnavailableError('The shot queue refused this shot; run the shots again.'));
    for (const message of unsent) await deps.shots.finishFailed({ ...message }, createdAt, stored, ['queued']);
    throw new UpstreamUnavailableError(
      `The shot queue took ${items.length - unsent.length} of ${items.length} shots; the others are marked failed. Run the shots again.`,
    );
  }
  return { releaseId, runId, createdAt, shots: items.map((item) => shotView(item, deps.publicBaseUrl)) };
}
