/** The shot worker: claim, capture, store, compare, finish; safe to repeat, as each step is conditional on the run or writes a preset asset id. */
import sharp from 'sharp';
import { HttpError, UpstreamFailedError, UpstreamUnavailableError } from '#shared/errors.ts';
import type { ShotMessage } from '#shared/schemas/shots.ts';
import type { ScreenshotService } from '#shared/services/capture/screenshot-service.ts';
import { normaliseTargetUrl } from '#shared/services/capture/target.ts';
import { comparePictures } from '#shared/services/shots/compare.ts';
import { loginFor, type LoginDeps } from '#shared/services/shots/login.ts';
import { DIFF_CLASSIFICATION, SHOT_CLASSIFICATION, findBaseline, storePicture, type Picture, type PictureDeps } from '#shared/services/shots/pictures.ts';
import { failureOf } from '#shared/services/shots/read.ts';
import type { ShotAt, ShotItem, ShotResult, ShotStore } from '#shared/store/shots.ts';

export interface ShotWorkerDeps extends PictureDeps, LoginDeps {
  shots: Pick<ShotStore, 'get' | 'claim' | 'finishDone' | 'finishFailed' | 'requeue' | 'ofReleases'>;
  capture: Pick<ScreenshotService, 'capture'>;
  /** How long a claimed shot is its worker's: at least the worker's time-out. */
  leaseMs: number;
  now?: () => Date;
}

export interface Delivery {
  receiveCount: number;
  /** The queue's maxReceiveCount: the last delivery before the dead-letter queue. */
  maxReceiveCount: number;
  /** Milliseconds the invocation has left. */
  remainingMs?: number;
}

/** What the worker did with one message, for its log line. */
export type ShotOutcome = 'done' | 'failed' | 'requeued' | 'superseded' | 'finished' | 'held' | 'missing';

/** Kept for storing the pictures and comparing them, out of what the capture may use. */
const STORE_RESERVE_MS = 10_000;

/** A capture's own failure is the shot's; one of a dependency, or an unknown one, is worth another delivery. */
const retryable = (error: unknown) => error instanceof UpstreamUnavailableError || !(error instanceof HttpError);

const stamp = (deps: ShotWorkerDeps) => deps.now?.() ?? new Date();

async function capture(deps: ShotWorkerDeps, workspaceId: string, shot: ShotItem, delivery: Delivery): Promise<ShotResult> {
  const login = await loginFor(deps, workspaceId, shot.url);
  const masked = shot.mask?.selectors ?? [];
  const result = await deps.capture.capture({
    ...shot.options,
    url: shot.url,
    deviceType: shot.deviceType,
    colorScheme: shot.colorScheme,
    // A release's pictures are of the page as it is now; a signed-in one is never cached anyway.
    forceRefresh: true,
    hideSelectors: [...(shot.options.hideSelectors ?? []), ...masked],
    ...login?.credentials,
    ...(delivery.remainingMs === undefined ? {} : { remainingMs: delivery.remainingMs - STORE_RESERVE_MS }),
  });
  const at = stamp(deps).toISOString();
  const links = { releaseId: shot.releaseId, shotName: shot.name };
  const picture: Picture = { assetId: shot.pictureAssetId, png: result.png, classification: SHOT_CLASSIFICATION, fileName: `${shot.name}.png`, links };
  if (!(await storePicture(deps, workspaceId, { ...picture, report: result.report, redactions: result.redactions }, at))) {
    throw new UpstreamFailedError({ hint: 'The shot’s picture is being deleted; run the shot again.' });
  }
  const { width = 0, height = 0 } = await sharp(result.png).metadata();
  return {
    assetId: shot.pictureAssetId,
    bytes: result.png.byteLength,
    width,
    height,
    ...(result.url !== normaliseTargetUrl(shot.url).href ? { drawnUrl: result.url } : {}),
    ...(result.extent?.truncated ? { truncated: true } : {}),
    ...(result.report ? { report: result.report } : {}),
    ...(result.redactions ? { redactionCount: result.redactions.length } : {}),
    ...(login ? { login: { sourceAppId: login.sourceAppId } } : {}),
    ...(await changesOf(deps, workspaceId, shot, result.png, at)),
  };
}

/** The comparison with the previous release's picture, its diff stored as an asset; nothing when there is none. */
async function changesOf(deps: ShotWorkerDeps, workspaceId: string, shot: ShotItem, png: Uint8Array, at: string): Promise<Pick<ShotResult, 'changes'>> {
  const baseline = await findBaseline(deps, workspaceId, shot);
  if (!baseline) return {};
  const comparison = await comparePictures(baseline.png, png, { threshold: shot.threshold, masks: shot.mask?.rects });
  const links = { releaseId: shot.releaseId, shotName: shot.name, baselineAssetId: baseline.assetId };
  const diff: Picture = { assetId: shot.diffAssetId, png: comparison.diffPng, classification: DIFF_CLASSIFICATION, fileName: `${shot.name}.diff.png`, links };
  if (!(await storePicture(deps, workspaceId, diff, at))) {
    throw new UpstreamFailedError({ hint: 'The shot’s diff picture is being deleted; run the shot again.' });
  }
  const { diffPng: _png, ...figures } = comparison;
  return { changes: { baseline: { releaseId: baseline.releaseId, assetId: baseline.assetId }, ...figures, diffAssetId: shot.diffAssetId } };
}

/** Takes one queued shot. Throws only to have the message delivered again (a dependency failed, and tries remain). */
export async function takeShot(deps: ShotWorkerDeps, message: ShotMessage, delivery: Delivery): Promise<{ outcome: ShotOutcome; attempts?: number }> {
  const at: ShotAt = message;
  const current = await deps.shots.get(message.workspaceId, message.releaseId, message.name);
  if (!current) return { outcome: 'missing' };
  if (current.runId !== message.runId) return { outcome: 'superseded' };
  if (current.status === 'done' || current.status === 'failed') return { outcome: 'finished' };
  const now = stamp(deps);
  const claimed = await deps.shots.claim(at, { now: now.getTime(), leaseUntil: now.getTime() + deps.leaseMs, startedAt: now.toISOString() });
  if (!claimed) return { outcome: 'held' };
  const attempts = claimed.attempts;
  const lastTry = delivery.receiveCount >= delivery.maxReceiveCount;
  // Found running with its lease lapsed: the worker before died in the capture (out of memory, say).
  // With no delivery after this one, say so rather than leave the shot running for ever.
  if (current.status === 'running' && lastTry) {
    const died = new UpstreamFailedError({
      hint: `The worker stopped without an answer on ${(attempts ?? 1) - 1} earlier tries (out of memory or time); capture less at once (no fullPage, a lower scale).`,
    });
    await deps.shots.finishFailed(at, stamp(deps).toISOString(), failureOf(died));
    return { outcome: 'failed', attempts };
  }
  try {
    const result = await capture(deps, message.workspaceId, claimed, delivery);
    return { outcome: (await deps.shots.finishDone(at, stamp(deps).toISOString(), result)) ? 'done' : 'superseded', attempts };
  } catch (error) {
    if (retryable(error) && !lastTry) {
      await deps.shots.requeue(at);
      throw error;
    }
    const finished = await deps.shots.finishFailed(at, stamp(deps).toISOString(), failureOf(error));
    return { outcome: finished ? 'failed' : 'superseded', attempts };
  }
}
