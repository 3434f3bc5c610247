/**
 * The route table: the one list of operations. The CDK stack, the local server, the fallback
 * (404/405/preflight) handler, the functions and the tests all read it. A row holds what runs:
 * method, path, auth, limits, grants and the schemas the input is validated with. What the
 * documents say about an operation (summary, description, responses) is in
 * shared/docs/operations.ts under the same operation id, so a function's bundle carries no prose.
 *
 * Adding a route: a schema in shared/schemas, a handler file in functions/, one row here and its
 * documentation in shared/docs/operations.ts.
 */
import type { RouteRow, TableAction } from '#shared/route-types.ts';
import { BUCKETS } from '#shared/resources.ts';
import { OrganizationParams } from '#shared/schemas/identity.ts';
import { IdempotencyHeaders, ReleaseCreate, ReleaseListQuery } from '#shared/schemas/releases.ts';
import { SourceAppCreate } from '#shared/schemas/source-apps.ts';
import { AssetCompleteRequest, AssetParams, AssetUploadRequest } from '#shared/schemas/assets.ts';
import { entitlementExtension } from '#shared/identity/plans.ts';
import { EXPORT_MAX_BODY_BYTES, ExportRequest } from '#shared/schemas/export.ts';
import { ImageProxyQuery } from '#shared/schemas/media.ts';
import { TweetParams } from '#shared/schemas/tweets.ts';
import { EditorAssetParams } from '#shared/schemas/editor.ts';
import { CachePurgeRequest, ScreenshotRequest } from '#shared/schemas/screenshot.ts';

/**
 * What every authenticated route reads from the workspace table: the credential (GetItem), then
 * the organization and the membership (one BatchGetItem).
 */
const AUTH_READS = ['GetItem', 'BatchGetItem'] as const satisfies readonly TableAction[];
/** Reads of the shell views: the above plus the lists (Query, on the table and gsi1). */
const SHELL_READS = [...AUTH_READS, 'Query'] as const satisfies readonly TableAction[];
const ASSETS = BUCKETS.assets.prefixes;
const CAPTURES = [BUCKETS.cache.prefixes.captures];

/**
 * What every shell operation shares: session cookie only, editor origins with credentials,
 * reads of the workspace table (where sessions, members and organizations live).
 */
const SHELL = {
  auth: 'session',
  cors: 'editor',
  memory: 256,
  timeout: 10,
  access: { tables: { workspace: SHELL_READS } },
  listed: true,
  tag: 'Shell',
  errors: [401, 403, 503],
} as const;

/**
 * What every workspace operation shares: an API key with the row's scope (or a session whose
 * role grants it), editor origins with credentials. Each row's `access` names
 * `apiKeyStamp`: the key's throttled last-used stamp is the one write a reading route makes, and
 * it gets its own grant limited to API-key items, not UpdateItem on the whole table.
 */
const WORKSPACE = {
  auth: 'apiKey',
  cors: 'editor',
  memory: 512,
  timeout: 10,
  listed: true,
} as const;

const JSON_BODY = { contentType: 'application/json', maxBytes: 64 * 1024 } as const;

// `satisfies` keeps each row's literal schema types, so handlers get typed input.
export const ROUTES = {
  postExport: {
    method: 'POST',
    path: '/api/export',
    handler: 'functions/export/post-export.ts',
    auth: 'none',
    cors: 'public',
    // sharp runs one libvips thread per image; 2 GB buys a little more than one vCPU and room for
    // a 40 MP decode. The timeout stays under API Gateway's 30 s integration limit.
    memory: 2048,
    timeout: 28,
    access: {},
    nodeModules: ['sharp'],
    listed: true,
    tag: 'Export',
    body: {
      contentType: 'multipart/form-data',
      schema: ExportRequest,
      maxBytes: EXPORT_MAX_BODY_BYTES,
      encoding: { image: { contentType: 'image/png, image/jpeg, image/webp' } },
    },
    errors: [400, 405, 413, 500],
    refusedMethods: ['GET'],
  },
  getTweet: {
    method: 'GET',
    path: '/api/tweet/{id}',
    handler: 'functions/tweets/get-tweet.ts',
    auth: 'none',
    cors: 'public',
    memory: 256,
    timeout: 10,
    access: {},
    listed: true,
    tag: 'Tweets',
    params: TweetParams,
    errors: [400, 404, 500],
  },
  getImageProxy: {
    method: 'GET',
    path: '/api/image-proxy',
    handler: 'functions/media/get-image-proxy.ts',
    auth: 'none',
    cors: 'public',
    // Buffers up to 4.5 MB on Lambda (plus its base64 copy); 512 MB also speeds up TLS.
    memory: 512,
    timeout: 28,
    access: {},
    listed: true,
    tag: 'Media',
    query: ImageProxyQuery,
    errors: [400, 403, 500, 502],
  },
  capturePage: {
    method: 'POST',
    path: '/api/screenshot',
    handler: 'functions/screenshot/capture-page.ts',
    auth: 'none',
    cors: 'public',
    // Chromium wants 1.6 GB or more (@sparticuz/chromium); memory also buys CPU, which is what renders.
    memory: 2048,
    // API Gateway gives up at 30 s; the capture time-out (at most 25 s) plus caching fits in 29.
    timeout: 29,
    // The per-IP counter (rate), then the cache entry and its PNG.
    access: { tables: { rate: ['UpdateItem'], cache: ['GetItem', 'PutItem'] }, buckets: { cache: { GetObject: CAPTURES, PutObject: CAPTURES } } },
    // It reads its brotli-compressed binary next to its own files at run time: install, never bundle.
    nodeModules: ['@sparticuz/chromium'],
    listed: true,
    tag: 'Screenshot',
    body: { contentType: 'application/json', schema: ScreenshotRequest, maxBytes: 8192 },
    errors: [400, 405, 408, 413, 429, 500, 503],
    refusedMethods: ['GET'],
    extensions: { 'x-easel-rate-limit': { limit: 20, windowSeconds: 60 } },
  },
  purgeCache: {
    method: 'POST',
    path: '/internal/cache/purge',
    handler: 'functions/internal/purge-cache.ts',
    auth: 'internal',
    cors: 'public',
    memory: 512,
    timeout: 30,
    // One URL: DeleteItem per variant; everything: Scan and BatchWriteItem. Objects go with DeleteObjects.
    access: { tables: { cache: ['DeleteItem', 'Scan', 'BatchWriteItem'] }, buckets: { cache: { DeleteObject: CAPTURES } } },
    // Maintainers only: never in /openapi.json, the llms files or the site pages.
    listed: false,
    tag: 'Internal',
    body: { contentType: 'application/json', schema: CachePurgeRequest, maxBytes: 8192 },
    errors: [400, 401, 413, 503],
  },
  listReleases: {
    ...WORKSPACE,
    method: 'GET',
    path: '/api/v1/releases',
    handler: 'functions/releases/list-releases.ts',
    permission: 'artifact:read',
    access: { tables: { workspace: [...AUTH_READS, 'Query'] }, apiKeyStamp: true },
    tag: 'Releases',
    query: ReleaseListQuery,
    errors: [400, 401, 403, 503],
  },
  createRelease: {
    ...WORKSPACE,
    method: 'POST',
    path: '/api/v1/releases',
    handler: 'functions/releases/create-release.ts',
    permission: 'release:create',
    // The Idempotency-Key claim and the release are conditional puts, read back on a repeat.
    access: { tables: { workspace: [...AUTH_READS, 'PutItem'] }, apiKeyStamp: true },
    tag: 'Releases',
    headers: IdempotencyHeaders,
    body: { ...JSON_BODY, schema: ReleaseCreate },
    errors: [400, 401, 403, 413, 503],
  },
  createSourceApp: {
    ...WORKSPACE,
    method: 'POST',
    path: '/api/v1/source-apps',
    handler: 'functions/source-apps/create-source-app.ts',
    permission: 'source:write',
    access: { tables: { workspace: [...AUTH_READS, 'PutItem'] }, apiKeyStamp: true },
    tag: 'Source apps',
    body: { ...JSON_BODY, schema: SourceAppCreate },
    status: 201,
    errors: [400, 401, 403, 413, 503],
  },
  createAssetUpload: {
    ...WORKSPACE,
    method: 'POST',
    path: '/api/v1/assets/upload-url',
    handler: 'functions/assets/create-upload-url.ts',
    permission: 'upload:sign',
    // The presigned PUT is signed with this function's credentials: it may write the staging prefix only.
    access: { tables: { workspace: [...AUTH_READS, 'PutItem'] }, buckets: { assets: { PutObject: [ASSETS.uploads] } }, apiKeyStamp: true },
    tag: 'Assets',
    body: { ...JSON_BODY, schema: AssetUploadRequest },
    status: 201,
    errors: [400, 401, 403, 413, 503],
  },
  completeAssetUpload: {
    ...WORKSPACE,
    method: 'POST',
    path: '/api/v1/assets/{assetId}/complete',
    handler: 'functions/assets/complete-upload.ts',
    permission: 'asset:write',
    // Reads and hashes the staged upload (or, for assets older than staging, the object's own key),
    // copies it to the asset's key, and removes the staging copy or a copy that raced a new upload.
    access: {
      tables: { workspace: [...AUTH_READS, 'UpdateItem'] },
      buckets: { assets: { GetObject: [ASSETS.uploads, ASSETS.objects], PutObject: [ASSETS.objects], DeleteObject: [ASSETS.uploads, ASSETS.objects] } },
      apiKeyStamp: true,
    },
    tag: 'Assets',
    params: AssetParams,
    body: { ...JSON_BODY, schema: AssetCompleteRequest, optional: true },
    errors: [400, 401, 403, 404, 413, 503],
  },
  getAssetDownloadUrl: {
    ...WORKSPACE,
    method: 'GET',
    path: '/api/v1/assets/{assetId}/download-url',
    handler: 'functions/assets/get-download-url.ts',
    permission: 'artifact:read',
    // The presigned GET is signed with this function's credentials: completed objects only.
    access: { tables: { workspace: AUTH_READS }, buckets: { assets: { GetObject: [ASSETS.objects] } }, apiKeyStamp: true },
    tag: 'Assets',
    params: AssetParams,
    errors: [400, 401, 403, 404, 503],
  },
  deleteAsset: {
    ...WORKSPACE,
    method: 'DELETE',
    path: '/api/v1/assets/{assetId}',
    handler: 'functions/assets/delete-asset.ts',
    permission: 'asset:write',
    // The write quota's counter, the ready → deleting transition (and its revert), the queued message.
    access: { tables: { workspace: [...AUTH_READS, 'UpdateItem'], rate: ['UpdateItem'] }, queues: { deletion: 'send' }, apiKeyStamp: true },
    tag: 'Assets',
    params: AssetParams,
    extensions: entitlementExtension('asset:delete', 'api:write:minute'),
    status: 202,
    errors: [400, 401, 403, 404, 409, 429, 503],
  },
  getMe: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/me',
    handler: 'functions/shell/get-me.ts',
  },
  getBootstrap: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/bootstrap',
    handler: 'functions/shell/get-bootstrap.ts',
    permission: 'organization:read',
  },
  listOrganizations: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations',
    handler: 'functions/shell/list-organizations.ts',
  },
  getOrganization: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}',
    handler: 'functions/shell/get-organization.ts',
    permission: 'organization:read',
    params: OrganizationParams,
  },
  listOrganizationMembers: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}/members',
    handler: 'functions/shell/list-organization-members.ts',
    permission: 'member:read',
    params: OrganizationParams,
  },
  listOrganizationInvitations: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}/invitations',
    handler: 'functions/shell/list-organization-invitations.ts',
    permission: 'invitation:read',
    params: OrganizationParams,
  },
  getOrganizationSettings: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}/settings',
    handler: 'functions/shell/get-organization-settings.ts',
    permission: 'settings:read',
    params: OrganizationParams,
  },
  getOrganizationPermissions: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}/permissions',
    handler: 'functions/shell/get-organization-permissions.ts',
    permission: 'organization:read',
    params: OrganizationParams,
  },
  getOrganizationCapabilities: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}/capabilities',
    handler: 'functions/shell/get-organization-capabilities.ts',
    permission: 'organization:read',
    params: OrganizationParams,
  },
  activateOrganization: {
    ...SHELL,
    method: 'POST',
    path: '/api/v1/organizations/{organizationId}/activate',
    handler: 'functions/shell/activate-organization.ts',
    // Writes the session's active organization.
    access: { tables: { workspace: [...SHELL_READS, 'UpdateItem'] } },
    params: OrganizationParams,
  },
  getHome: {
    method: 'GET',
    path: '/',
    handler: 'functions/site/get-home.ts',
    auth: 'none',
    cors: 'public',
    memory: 256,
    timeout: 5,
    access: {},
    editorAssets: true,
    listed: true,
    tag: 'Discovery',
    errors: [],
  },
  getEditorAsset: {
    method: 'GET',
    path: '/editor/{file}',
    handler: 'functions/site/get-editor-asset.ts',
    auth: 'none',
    cors: 'public',
    memory: 256,
    timeout: 5,
    access: {},
    editorAssets: true,
    // Part of the page, not of the API.
    listed: false,
    tag: 'Discovery',
    params: EditorAssetParams,
    errors: [400, 404],
  },
  getDocs: {
    method: 'GET',
    path: '/docs',
    handler: 'functions/site/get-docs.ts',
    auth: 'none',
    cors: 'public',
    memory: 256,
    timeout: 5,
    access: {},
    listed: true,
    tag: 'Discovery',
    errors: [],
  },
  getErrorDocs: {
    method: 'GET',
    path: '/docs/errors',
    handler: 'functions/site/get-error-docs.ts',
    auth: 'none',
    cors: 'public',
    memory: 256,
    timeout: 5,
    access: {},
    listed: true,
    tag: 'Discovery',
    errors: [],
  },
  getOpenApi: {
    method: 'GET',
    path: '/openapi.json',
    handler: 'functions/discovery/get-openapi.ts',
    auth: 'none',
    cors: 'public',
    memory: 256,
    timeout: 5,
    access: {},
    listed: true,
    tag: 'Discovery',
    errors: [],
  },
  getLlms: {
    method: 'GET',
    path: '/llms.txt',
    handler: 'functions/discovery/get-llms.ts',
    auth: 'none',
    cors: 'public',
    memory: 256,
    timeout: 5,
    access: {},
    listed: true,
    tag: 'Discovery',
    errors: [],
  },
  getLlmsFull: {
    method: 'GET',
    path: '/llms-full.txt',
    handler: 'functions/discovery/get-llms-full.ts',
    auth: 'none',
    cors: 'public',
    memory: 256,
    timeout: 5,
    access: {},
    listed: true,
    tag: 'Discovery',
    errors: [],
  },
} satisfies Record<string, RouteRow>;

export type Routes = typeof ROUTES;
export type OperationId = keyof Routes;

/** Rows with their operation ids, in table order. */
export const ROUTE_LIST: readonly (RouteRow & { operationId: OperationId })[] = Object.entries(ROUTES).map(
  ([operationId, def]) => ({ ...(def as RouteRow), operationId: operationId as OperationId }),
);

/** The function that answers everything the table does not: 404, 405 with Allow, CORS preflight. */
export const FALLBACK = {
  handler: 'functions/fallback/handle-unmatched.ts',
  memory: 256,
  timeout: 5,
} as const;
