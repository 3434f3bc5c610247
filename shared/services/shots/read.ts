/** Where each shot of a release is: the read side, apart so its route bundles no request schema. */
import { HttpError, InternalError, NotFoundError } from '#shared/errors.ts';
import type { ReleaseShots, ShotView } from '#shared/schemas/shots.ts';
import type { ReleaseStore } from '#shared/store/releases.ts';
import type { ShotFailure, ShotItem, ShotStore } from '#shared/store/shots.ts';

export interface ShotReadDeps {
  releases: Pick<ReleaseStore, 'get'>;
  shots: Pick<ShotStore, 'list'>;
  /** The origin of the error envelopes' documentation links. */
  publicBaseUrl: string;
}

export const releaseNotFound = () => new NotFoundError('Release not found', 'No release with this id exists in this workspace.');

/** An error as a shot keeps it; anything not an HttpError is a generic internal error. */
export function failureOf(error: unknown): ShotFailure {
  const known = error instanceof HttpError ? error : new InternalError(error);
  return { status: known.status, code: known.code, message: known.message, hint: known.hint };
}

/** A kept failure as the error envelope, its documentation link on this origin. */
export function envelopeOf(failure: ShotFailure, publicBaseUrl: string): NonNullable<ShotView['error']> {
  const { status, code, message, hint } = failure;
  return { error: message, code, message, hint, status, documentation: `${publicBaseUrl}/docs/errors#${code}` };
}

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
  if (item.status === 'failed' && item.error) view.error = envelopeOf(item.error, publicBaseUrl);
  return view as ShotView;
}

/** Every shot of the release, by name, with counts by status. */
export async function readShots(deps: ShotReadDeps, input: { workspaceId: string; releaseId: string }): Promise<ReleaseShots> {
  const release = await deps.releases.get(input.workspaceId, input.releaseId);
  if (!release) throw releaseNotFound();
  const items = await deps.shots.list(input.workspaceId, input.releaseId);
  const counts = { queued: 0, running: 0, done: 0, failed: 0 };
  for (const item of items) counts[item.status] += 1;
  return {
    releaseId: input.releaseId,
    counts,
    shots: items.map((item) => shotView(item, deps.publicBaseUrl)),
  };
}
