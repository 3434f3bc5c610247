/** The rows of functions/assets/; the deletion worker is named with its queue in resources.ts. */
import { entitlementExtension } from '#shared/identity/plans.ts';
import { BUCKETS } from '#shared/resources.ts';
import * as endpoint from '#shared/routes/endpoints.ts';
import { AUTH_READS, defineRow, JSON_BODY, WORKSPACE } from '#shared/routes/row.ts';
import { AssetCompleteRequest, AssetListQuery, AssetParams, AssetUploadRequest } from '#shared/schemas/assets.ts';
import { IdempotencyKeyHeaders } from '#shared/schemas/common.ts';

const ASSETS = BUCKETS.assets.prefixes;

export const createAssetUpload = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.createAssetUpload,
  ...WORKSPACE,
  handler: 'functions/assets/create-upload-url.ts',
  permission: 'upload:sign',
  // The presigned PUT carries this function's credentials: staging prefix only. UpdateItem and DeleteItem are the Idempotency-Key record's.
  access: {
    tables: { workspace: [...AUTH_READS, 'PutItem', 'UpdateItem', 'DeleteItem'] },
    buckets: { assets: { PutObject: [ASSETS.uploads] } },
    apiKeyStamp: true,
  },
  tag: 'Assets',
  idempotent: true,
  headers: IdempotencyKeyHeaders,
  body: { ...JSON_BODY, schema: AssetUploadRequest },
  status: 201,
  errors: [400, 401, 403, 413, 503],
}));

export const completeAssetUpload = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.completeAssetUpload,
  ...WORKSPACE,
  handler: 'functions/assets/complete-upload.ts',
  permission: 'asset:write',
  // Reads the staged upload (or a pre-staging asset's own key), copies it, removes stale copies.
  // PutItem and DeleteItem are the Idempotency-Key record's.
  access: {
    tables: { workspace: [...AUTH_READS, 'UpdateItem', 'PutItem', 'DeleteItem'] },
    buckets: { assets: { GetObject: [ASSETS.uploads, ASSETS.objects], PutObject: [ASSETS.objects], DeleteObject: [ASSETS.uploads, ASSETS.objects] } },
    apiKeyStamp: true,
  },
  tag: 'Assets',
  idempotent: true,
  params: AssetParams,
  headers: IdempotencyKeyHeaders,
  body: { ...JSON_BODY, schema: AssetCompleteRequest, optional: true },
  errors: [400, 401, 403, 404, 413, 503],
}));

export const getAssetDownloadUrl = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getAssetDownloadUrl,
  ...WORKSPACE,
  handler: 'functions/assets/get-download-url.ts',
  permission: 'artifact:read',
  // The presigned GET carries this function's credentials: completed objects only.
  access: { tables: { workspace: AUTH_READS }, buckets: { assets: { GetObject: [ASSETS.objects] } }, apiKeyStamp: true },
  tag: 'Assets',
  params: AssetParams,
  errors: [400, 401, 403, 404, 503],
}));

export const deleteAsset = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.deleteAsset,
  ...WORKSPACE,
  handler: 'functions/assets/delete-asset.ts',
  permission: 'asset:write',
  // The quota counter, the ready → deleting transition and its revert, the queued message.
  access: { tables: { workspace: [...AUTH_READS, 'UpdateItem'], rate: ['UpdateItem'] }, queues: { deletion: 'send' }, apiKeyStamp: true },
  tag: 'Assets',
  params: AssetParams,
  extensions: entitlementExtension('asset:delete', 'api:write:minute'),
  status: 202,
  errors: [400, 401, 403, 404, 409, 429, 503],
}));

export const listAssets = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.listAssets,
  ...WORKSPACE,
  handler: 'functions/assets/list-assets.ts',
  permission: 'artifact:read',
  // Each ready asset's presigned GET carries this function's credentials: completed objects only.
  access: { tables: { workspace: [...AUTH_READS, 'Query'] }, buckets: { assets: { GetObject: [ASSETS.objects] } }, apiKeyStamp: true },
  tag: 'Assets',
  query: AssetListQuery,
  errors: [400, 401, 403, 503],
}));
