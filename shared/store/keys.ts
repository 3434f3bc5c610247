/**
 * Key layout of the single-table workspace store. Every item of a workspace lives under its
 * partition, so a query can never cross workspaces by construction.
 */
export const keys = {
  asset: (workspaceId: string, assetId: string) => ({ pk: `WS#${workspaceId}`, sk: `ASSET#${assetId}` }),
};
