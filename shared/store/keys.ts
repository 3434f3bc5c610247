/**
 * Key layout of the single-table workspace store. Every item of a workspace lives under its
 * partition, so a query can never cross workspaces by construction.
 */
const ws = (workspaceId: string) => `WS#${workspaceId}`;

export const keys = {
  asset: (workspaceId: string, assetId: string) => ({ pk: ws(workspaceId), sk: `ASSET#${assetId}` }),
  /** Release ids are UUIDv7: the sort key orders releases by creation time. */
  release: (workspaceId: string, releaseId: string) => ({ pk: ws(workspaceId), sk: `RELEASE#${releaseId}` }),
  releasePrefix: 'RELEASE#',
  sourceApp: (workspaceId: string, sourceAppId: string) => ({ pk: ws(workspaceId), sk: `SOURCEAPP#${sourceAppId}` }),
  /** The client's key is hashed: it can be up to 128 arbitrary characters. */
  idempotency: (workspaceId: string, scope: string, keyHash: string) => ({ pk: ws(workspaceId), sk: `IDEMPOTENCY#${scope}#${keyHash}` }),
};
