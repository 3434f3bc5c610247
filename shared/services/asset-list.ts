/** GET /api/v1/assets: a workspace's assets, newest first, each ready one with a short-lived download link. */
import { toAsset, signedDownload, type AssetUrlDeps } from '#shared/services/assets.ts';
import { pageAfter, pageCursor } from '#shared/services/list-cursor.ts';
import type { Asset } from '#shared/schemas/assets.ts';

const CURSOR_VERSION = 'a1';

export interface ListedAsset extends Asset {
  downloadUrl: string | null;
  downloadExpiresAt: string | null;
}

/** One extra record is read, so `nextCursor` appears only when older assets remain. */
export async function listAssets(
  deps: AssetUrlDeps,
  input: { workspaceId: string; limit: number; cursor?: string },
): Promise<{ assets: ListedAsset[]; nextCursor?: string }> {
  const after = input.cursor === undefined ? undefined : pageAfter(CURSOR_VERSION, input.workspaceId, input.cursor);
  // Deleted records are filtered after the read, so a page may need more than one query.
  const items = [];
  let from = after;
  do {
    const page = await deps.assets.list(input.workspaceId, { limit: input.limit + 1 - items.length, ...(from ? { after: from } : {}) });
    items.push(...page.items);
    from = page.last;
  } while (items.length <= input.limit && from);
  const shown = items.slice(0, input.limit);
  const assets = await Promise.all(
    shown.map(async (item) => {
      const download = item.status === 'ready' ? await signedDownload(deps, item) : undefined;
      return { ...toAsset(item), downloadUrl: download?.downloadUrl ?? null, downloadExpiresAt: download?.expiresAt ?? null };
    }),
  );
  return items.length > input.limit ? { assets, nextCursor: pageCursor(CURSOR_VERSION, input.workspaceId, shown[shown.length - 1]!.assetId) } : { assets };
}
