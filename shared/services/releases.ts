import { createHash } from 'node:crypto';
import { InvalidRequestError } from '#shared/errors.ts';
import { fingerprint } from '#shared/fingerprint.ts';
import { uuidv7 } from '#shared/ids.ts';
import { pageAfter, pageCursor } from '#shared/services/list-cursor.ts';
import type { Release, ReleaseCreate } from '#shared/schemas/releases.ts';
import type { IdempotencyClaim, ReleaseStore } from '#shared/store/releases.ts';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export interface ReleaseDeps {
  releases: ReleaseStore;
  /** Whether a product surface with this id belongs to the workspace. */
  productSurfaceExists(workspaceId: string, productSurfaceId: string): Promise<boolean>;
  now?: () => Date;
}

const CURSOR_VERSION = 'r1';

/** The opaque cursor of the page that starts after `releaseId`. */
export function releaseCursor(workspaceId: string, releaseId: string): string {
  return pageCursor(CURSOR_VERSION, workspaceId, releaseId);
}

/** Newest first; one extra item is read so `nextCursor` appears only when older releases remain. */
export async function listReleases(
  deps: ReleaseDeps,
  input: { workspaceId: string; limit: number; cursor?: string },
): Promise<{ releases: Release[]; nextCursor?: string }> {
  const after = input.cursor === undefined ? undefined : pageAfter(CURSOR_VERSION, input.workspaceId, input.cursor);
  const page = await deps.releases.list(input.workspaceId, { limit: input.limit + 1, ...(after ? { after } : {}) });
  const releases = page.slice(0, input.limit);
  const more = page.length > input.limit;
  return more ? { releases, nextCursor: releaseCursor(input.workspaceId, releases[releases.length - 1]!.id) } : { releases };
}

/** With an Idempotency-Key, one conditional write on the claim makes racing requests create one release. */
export async function createRelease(
  deps: ReleaseDeps,
  input: { workspaceId: string; body: ReleaseCreate; idempotencyKey?: string },
): Promise<{ created: boolean; release: Release }> {
  const { workspaceId, body } = input;
  if (body.productSurfaceId && !(await deps.productSurfaceExists(workspaceId, body.productSurfaceId))) {
    throw new InvalidRequestError('Unknown product surface', 'productSurfaceId must name a product surface of this workspace.');
  }
  const now = deps.now?.() ?? new Date();
  let releaseId = uuidv7(now.getTime());
  let createdAt = now.toISOString();
  if (input.idempotencyKey !== undefined) {
    const requestHash = fingerprint(body);
    const epoch = Math.floor(now.getTime() / 1000);
    const keyHash = createHash('sha256').update(input.idempotencyKey).digest('hex');
    const fresh: IdempotencyClaim = { requestHash, releaseId: uuidv7(now.getTime()), createdAt: now.toISOString() };
    const claim = await deps.releases.claim(workspaceId, keyHash, fresh, { epoch, expiresAt: epoch + IDEMPOTENCY_TTL_SECONDS });
    if (claim.requestHash !== requestHash) {
      throw new InvalidRequestError(
        'Idempotency-Key reused with a different body',
        'This Idempotency-Key was already used for another request body in this workspace: resend the original body, or use a new key for a new release.',
      );
    }
    ({ releaseId, createdAt } = claim);
  }
  const release: Release = { id: releaseId, ...body, sourceUrls: body.sourceUrls ?? [], createdAt };
  return deps.releases.createOrGet(workspaceId, release);
}
