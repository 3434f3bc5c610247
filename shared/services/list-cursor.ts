/** The opaque cursors of the newest-first lists (releases, assets): one listing's, of one workspace, never another's. */
import { createHash } from 'node:crypto';
import { InvalidRequestError } from '#shared/errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A short tag of the workspace, so a cursor only continues the listing it came from. */
function listingTag(workspaceId: string): string {
  return createHash('sha256').update(workspaceId).digest('base64url').slice(0, 11);
}

/** The cursor of the page that starts after the item `id`: the listing's version, the id, the tag. */
export function pageCursor(version: string, workspaceId: string, id: string): string {
  return Buffer.from(`${version}.${id}.${listingTag(workspaceId)}`).toString('base64url');
}

/** The item a cursor continues after; anything this API did not issue for this listing and workspace is 400. */
export function pageAfter(version: string, workspaceId: string, cursor: string): string {
  const [given, id, tag, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (!/^[A-Za-z0-9_-]+$/.test(cursor) || rest.length > 0 || given !== version || !id || !UUID.test(id) || tag !== listingTag(workspaceId)) {
    throw new InvalidRequestError('Invalid cursor', 'cursor must be the nextCursor of an earlier page of this list, unchanged; omit it for the first page.');
  }
  return id;
}
