/** A shot's pictures as assets of the workspace, and the baseline a new picture is compared with. */
import { createHash } from 'node:crypto';
import type { Redaction } from '#shared/schemas/redaction.ts';
import type { CaptureReport } from '#shared/schemas/screenshot.ts';
import { objectKeyOf } from '#shared/services/assets.ts';
import type { AssetObjectStore } from '#shared/store/asset-objects.ts';
import type { AssetStore } from '#shared/store/assets.ts';
import type { ReleaseStore } from '#shared/store/releases.ts';
import type { ShotItem, ShotStore } from '#shared/store/shots.ts';

/** The asset classifications of a shot's picture and of its diff with the previous release. */
export const SHOT_CLASSIFICATION = 'release-shot';
export const DIFF_CLASSIFICATION = 'release-shot-diff';
/** Earlier releases searched for a baseline: the nearest that has a done shot of the same name. */
export const BASELINE_LOOKBACK = 10;
/** Redaction boxes an asset record keeps (≈ 60 bytes each, well within DynamoDB's 400 KB item). */
export const MAX_KEPT_REDACTIONS = 1_000;

export interface PictureDeps {
  assets: Pick<AssetStore, 'get' | 'putMade'>;
  objects: Pick<AssetObjectStore, 'put' | 'read'>;
  releases: Pick<ReleaseStore, 'list'>;
  shots: Pick<ShotStore, 'ofReleases'>;
}

export interface Picture {
  assetId: string;
  png: Uint8Array;
  classification: typeof SHOT_CLASSIFICATION | typeof DIFF_CLASSIFICATION;
  fileName: string;
  links: { releaseId: string; shotName: string; baselineAssetId?: string };
  report?: CaptureReport;
  redactions?: Redaction[];
}

/** Bytes, then a ready record, under the id chosen at queueing (a redelivery replaces both); false, changing nothing, if the asset is being deleted. */
export async function storePicture(deps: PictureDeps, workspaceId: string, picture: Picture, at: string): Promise<boolean> {
  const existing = await deps.assets.get(workspaceId, picture.assetId);
  if (existing && existing.status !== 'ready') return false;
  const objectKey = objectKeyOf(workspaceId, picture.assetId);
  await deps.objects.put(objectKey, picture.png, 'image/png');
  const kept = picture.redactions?.slice(0, MAX_KEPT_REDACTIONS);
  const omitted = (picture.redactions?.length ?? 0) - (kept?.length ?? 0);
  return deps.assets.putMade(workspaceId, {
    assetId: picture.assetId,
    status: 'ready',
    contentType: 'image/png',
    bytes: picture.png.byteLength,
    fileName: picture.fileName,
    classification: picture.classification,
    sha256: createHash('sha256').update(picture.png).digest('hex'),
    createdAt: existing?.createdAt ?? at,
    completedAt: at,
    objectKey,
    ...picture.links,
    ...(picture.report ? { report: picture.report } : {}),
    ...(kept ? { redactions: kept } : {}),
    ...(omitted > 0 ? { redactionsOmitted: omitted } : {}),
  });
}

export interface Baseline {
  releaseId: string;
  assetId: string;
  png: Uint8Array;
}

/** The picture of the same-named done shot of the nearest earlier release (of the last {@link BASELINE_LOOKBACK}) whose asset is still there. */
export async function findBaseline(deps: PictureDeps, workspaceId: string, shot: Pick<ShotItem, 'releaseId' | 'name'>): Promise<Baseline | undefined> {
  const earlier = await deps.releases.list(workspaceId, { limit: BASELINE_LOOKBACK, after: shot.releaseId });
  if (earlier.length === 0) return undefined;
  const candidates = await deps.shots.ofReleases(
    workspaceId,
    earlier.map((release) => release.id),
    shot.name,
  );
  const done = new Map(
    candidates
      .filter((candidate) => candidate.status === 'done' && candidate.assetId !== undefined)
      .map((candidate) => [candidate.releaseId, candidate.assetId!]),
  );
  for (const release of earlier) {
    const assetId = done.get(release.id);
    if (assetId === undefined) continue;
    const asset = await deps.assets.get(workspaceId, assetId);
    if (asset?.status !== 'ready') continue;
    const png = await deps.objects.read(asset.objectKey);
    if (png) return { releaseId: release.id, assetId, png };
  }
  return undefined;
}
