/** One draft per external release however often delivered (docs/identity.md, "Release intake"); its pages on allowedHosts are shot. */
import { createHash } from 'node:crypto';
import { HttpError } from '#shared/errors.ts';
import type { SourceAppPrincipal } from '#shared/identity/principal.ts';
import { uuidv7 } from '#shared/ids.ts';
import { isHttpUrl } from '#shared/schemas/common.ts';
import type { IntakeAnswer } from '#shared/schemas/intake.ts';
import type { Release } from '#shared/schemas/releases.ts';
import type { ExternalRelease, IntakeEvent } from '#shared/services/intake/events.ts';
import { clip, readNotes, TITLE_MAX } from '#shared/services/intake/notes.ts';
import { envelopeOf, failureOf } from '#shared/services/shots/read.ts';
import { startShotRun, type ShotRunDeps } from '#shared/services/shots/runs.ts';
import { allowsOrigin } from '#shared/services/source-apps.ts';
import type { ReleaseStore } from '#shared/store/releases.ts';

export { readEvent } from '#shared/services/intake/events.ts';

export interface IntakeDeps {
  releases: Pick<ReleaseStore, 'claimExternal' | 'externalClaim' | 'createOrGet' | 'updateDraft'>;
  /** What starting a new draft's shots takes (services/shots/runs.ts). */
  shots: ShotRunDeps;
  now?: () => Date;
}

/** A release's sourceUrls hold at most this many (the contract's bound). */
const MAX_SOURCE_URLS = 20;

type Draft = Pick<Release, 'title' | 'benefitStatement' | 'description' | 'sourceUrls' | 'intake'>;

/** The external release's key: the app's external id (else its id), how it signs, and the provider's release id. */
function externalKey(source: SourceAppPrincipal, release: ExternalRelease): string {
  const app = source.sourceApp;
  return createHash('sha256')
    .update(`${app.externalId || app.id}\n${source.signing}\n${release.id}`)
    .digest('hex');
}

/** Title, benefit and plain-text description from the notes; sourceUrls only on the app's allowedHosts. */
function draftOf(source: SourceAppPrincipal, release: ExternalRelease, now: Date): Draft {
  const app = source.sourceApp;
  const notes = readNotes(release.notes);
  const title = clip(release.name, TITLE_MAX);
  const linked = [...new Set([...release.urls, ...notes.urls])];
  return {
    title,
    benefitStatement: notes.benefitStatement ?? title,
    ...(notes.description ? { description: notes.description } : {}),
    sourceUrls: linked.filter((url) => isHttpUrl(url) && allowsOrigin(app, url)).slice(0, MAX_SOURCE_URLS),
    intake: {
      sourceAppId: app.id,
      provider: app.provider,
      externalReleaseId: release.id,
      ...(release.url ? { url: release.url } : {}),
      deliveryId: source.deliveryId,
      updatedAt: now.toISOString(),
    },
  };
}

/** The new draft's shots: its sourceUrls, desktop and light; a refused run leaves the draft as it is. */
async function shoot(deps: IntakeDeps, source: SourceAppPrincipal, release: Release): Promise<Pick<IntakeAnswer, 'run' | 'runError'>> {
  if (release.sourceUrls.length === 0) return {};
  try {
    return { run: await startShotRun(deps.shots, { workspaceId: source.workspaceId, plan: source.plan, releaseId: release.id, request: undefined }) };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    // A refusal of the run as its envelope, as a failed shot carries one.
    return { runError: envelopeOf(failureOf(error), deps.shots.publicBaseUrl) };
  }
}

/** Publishing claims the external id (one conditional write), then writes or rewrites the draft; an update rewrites an existing draft only. */
export async function takeInRelease(deps: IntakeDeps, input: { source: SourceAppPrincipal; event: IntakeEvent }): Promise<IntakeAnswer> {
  const { source, event } = input;
  const { workspaceId } = source;
  const base = { deliveryId: source.deliveryId, event: event.event };
  if (event.action === 'ignore') return { result: 'ignored', ...base, reason: event.reason };
  const now = deps.now?.() ?? new Date();
  const key = externalKey(source, event.release);
  const draft = draftOf(source, event.release, now);
  const rewrite = async (releaseId: string): Promise<IntakeAnswer> => {
    const updated = await deps.releases.updateDraft(workspaceId, releaseId, draft);
    return updated ? { result: 'updated', ...base, release: updated } : { result: 'ignored', ...base, reason: 'its release is no longer a draft' };
  };
  if (event.action === 'update') {
    const claim = await deps.releases.externalClaim(workspaceId, key);
    return claim ? rewrite(claim.releaseId) : { result: 'ignored', ...base, reason: 'no draft of this release: it was never published to this workspace' };
  }
  const { releaseId } = await deps.releases.claimExternal(workspaceId, key, { releaseId: uuidv7(now.getTime()) });
  const put = await deps.releases.createOrGet(workspaceId, { id: releaseId, ...draft, createdAt: now.toISOString(), state: 'draft' });
  if (!put.created) return rewrite(releaseId);
  return { result: 'created', ...base, release: put.release, ...(await shoot(deps, source, put.release)) };
}
