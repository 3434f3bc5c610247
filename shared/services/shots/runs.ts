/**
 * Release shots, as the routes (and a release intake) use them: start a run of a release's shots,
 * read where each one is. The shot worker (./take-shot.ts) does the capturing.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, UpstreamUnavailableError } from '#shared/errors.ts';
import type { Plan } from '#shared/identity/plans.ts';
import { uuidv7 } from '#shared/ids.ts';
import type { RateLimiter } from '#shared/rate-limiter.ts';
import { SHOT_STATUSES } from '#shared/schemas/shots.ts';
import type { ReleaseShots, ShotMessage, ShotRun, ShotRunRequest, ShotView } from '#shared/schemas/shots.ts';
import { consumeQuota } from '#shared/services/quota.ts';
import { planShots, type PlannedShot } from '#shared/services/shots/plan.ts';
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

export interface ShotReadDeps {
  releases: Pick<ReleaseStore, 'get'>;
  shots: Pick<ShotStore, 'list'>;
  /** The origin of the error envelopes' documentation links. */
  publicBaseUrl: string;
}

const releaseNotFound = () => new NotFoundError('Release not found', 'No release with this id exists in this workspace.');

/** The view of a shot, a failed one with its error as the envelope. */
export function shotView(item: ShotItem, publicBaseUrl: string): ShotView {
  const view: Record<string, unknown> = {
    name: item.name,
    url: item.url,
    deviceType: item.deviceType,
    colorScheme: item.colorScheme,
    status: item.status,
    runId: item.runId,
    queuedAt: item.queuedAt,
  };
  const shown = ['startedAt', 'finishedAt', 'attempts', 'bytes', 'width', 'height', 'drawnUrl', 'truncated', 'report', 'redactionCount', 'login'] as const;
  for (const field of shown) if (item[field] !== undefined) view[field] = item[field];
  if (item.status === 'done') {
    view.assetId = item.assetId;
    if (item.changes) view.changes = item.changes;
  }
  if (item.status === 'failed' && item.error) {
    const { status, code, message, hint } = item.error;
    view.error = { error: message, code, message, hint, status, documentation: `${publicBaseUrl}/docs/errors#${code}` };
  }
  return view as ShotView;
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

/**
 * Queues one message per shot of the request (or of the release's sourceUrls), each counted
 * against the plan's `shots:month` quota. Refused (404, 400, 429) before anything is written or
 * queued. A shot whose message the queue refuses is marked failed, and the answer is 503.
 */
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
    const failure = new UpstreamUnavailableError('The shot queue refused this shot; run the shots again.');
    const stored = { status: failure.status, code: failure.code, message: failure.message, hint: failure.hint };
    for (const message of unsent) await deps.shots.finishFailed({ ...message }, createdAt, stored, ['queued']);
    throw new UpstreamUnavailableError(
      `The shot queue took ${items.length - unsent.length} of ${items.length} shots; the others are marked failed. Run the shots again.`,
    );
  }
  return { releaseId, runId, createdAt, shots: items.map((item) => shotView(item, deps.publicBaseUrl)) };
}

/** Every shot of the release, by name, with counts by status. */
export async function readShots(deps: ShotReadDeps, input: { workspaceId: string; releaseId: string }): Promise<ReleaseShots> {
  const release = await deps.releases.get(input.workspaceId, input.releaseId);
  if (!release) throw releaseNotFound();
  const items = await deps.shots.list(input.workspaceId, input.releaseId);
  const counts = Object.fromEntries(SHOT_STATUSES.map((status) => [status, items.filter((item) => item.status === status).length]));
  return {
    releaseId: input.releaseId,
    counts: counts as ReleaseShots['counts'],
    shots: items.map((item) => shotView(item, deps.publicBaseUrl)),
  };
}
