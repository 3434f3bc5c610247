/**
 * The route table: the one list of operations. The CDK stack, the local server, the OpenAPI
 * generator, the fallback (404/405/preflight) handler and the tests all read it.
 *
 * Adding a route: a schema in shared/schemas, a handler file in functions/, one row here.
 */
import type { AnySchema, RouteDef, TableAction } from '#shared/route-types.ts';
import { BUCKETS } from '#shared/resources.ts';
import {
  BootstrapResponse,
  CapabilitiesResponse,
  InvitationsResponse,
  MeResponse,
  MembersResponse,
  OrganizationParams,
  OrganizationResponse,
  OrganizationsResponse,
  PermissionsResponse,
  SettingsResponse,
} from '#shared/schemas/identity.ts';
import { IdempotencyHeaders, Release, ReleaseCreate, ReleaseList, ReleaseListQuery } from '#shared/schemas/releases.ts';
import { SourceApp, SourceAppCreate } from '#shared/schemas/source-apps.ts';
import {
  Asset,
  AssetCompleteRequest,
  AssetDeletionAccepted,
  AssetDownload,
  AssetParams,
  AssetUploadInstructions,
  AssetUploadRequest,
} from '#shared/schemas/assets.ts';
import { entitlementExtension } from '#shared/identity/plans.ts';
import { EXPORT_DESCRIPTION, EXPORT_MAX_BODY_BYTES, ExportRequest } from '#shared/schemas/export.ts';
import { ImageProxyQuery } from '#shared/schemas/media.ts';
import { TweetErrorEnvelope, TweetFailureEnvelope, TweetParams, TweetResponse } from '#shared/schemas/tweets.ts';
import { MEDIA_HOSTS } from '#shared/net/media-hosts.ts';
import { EditorAssetParams } from '#shared/schemas/editor.ts';
import { CachePurgeRequest, CachePurgeResponse, ScreenshotRequest, ScreenshotResponse } from '#shared/schemas/screenshot.ts';

/**
 * What every authenticated route reads from the workspace table: the credential (GetItem), then
 * the organization and the membership (one BatchGetItem).
 */
const AUTH_READS = ['GetItem', 'BatchGetItem'] as const satisfies readonly TableAction[];
/** Reads of the shell views: the above plus the lists (Query, on the table and gsi1). */
const SHELL_READS = [...AUTH_READS, 'Query'] as const satisfies readonly TableAction[];
const ASSETS = BUCKETS.assets.prefixes;
const CAPTURES = [BUCKETS.cache.prefixes.captures];

const text = (description: string, contentType: string) => ({ description, contentType });
const json = <S extends AnySchema>(description: string, schema: S) => ({ description, contentType: 'application/json', schema });

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

/** The X-RateLimit-* headers every response of a rate-limited route carries. */
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix epoch milliseconds when the window resets.', schema: { type: 'integer' } },
} as const;

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
    summary: 'Recompress an image',
    description: EXPORT_DESCRIPTION,
    body: {
      contentType: 'multipart/form-data',
      schema: ExportRequest,
      maxBytes: EXPORT_MAX_BODY_BYTES,
      encoding: { image: { contentType: 'image/png, image/jpeg, image/webp' } },
    },
    responses: {
      200: {
        description: 'The recompressed image: raw bytes (not JSON) of the requested format.',
        contentType: 'image/png, image/jpeg, image/webp',
        headers: {
          'Content-Disposition': { description: 'attachment; filename="<upload name>.<png|jpg|webp>"', schema: { type: 'string' } },
        },
      },
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
    summary: 'Look up a public tweet',
    description:
      'The public payload of a tweet by its numeric status ID, as the syndication API behind embedded tweets returns it. A found tweet is cached briefly in the service and may be cached by a CDN (`Cache-Control: public, s-maxage=…, stale-while-revalidate=…`); failures are never cached. A deleted or private tweet (tombstone) or an unknown ID is 404; an upstream failure, time-out or unusable answer is 500. Both error bodies carry `data: null` besides the envelope, so they also read as a tweet response.',
    params: TweetParams,
    responses: {
      200: {
        description: 'The tweet.',
        schema: TweetResponse,
        headers: { 'Cache-Control': { description: 'How long browsers and shared caches may keep the answer.', schema: { type: 'string' } } },
      },
      404: { description: 'Not Found: `not_found`, no public tweet has this ID (unknown, deleted or private). The envelope plus `data: null`.', schema: TweetErrorEnvelope },
      500: { description: 'Internal Server Error: `upstream_failed` when the tweet upstream fails, or `internal_error`. The envelope plus `data: null` for `upstream_failed`.', schema: TweetFailureEnvelope },
    },
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
    summary: 'Relay a social-network media file',
    description: [
      `Streams an image or video from ${MEDIA_HOSTS.join(', ')} through this origin with \`Access-Control-Allow-Origin: *\`, so the editor can draw it on a canvas without tainting it.`,
      '',
      '- Only https URLs on exactly those hosts (no subdomains, no other port, no user:password@); anything else is 403 `forbidden_domain`. Up to 3 redirects are followed, each target checked the same way, and the connected address must be public.',
      '- Only image/* and video/* responses are relayed, never SVG; other types are 502 `upstream_failed`, as is a refusal (4xx/5xx) by the media host. A host that cannot be reached or times out is 500 `upstream_failed`.',
      '- Forwarded upstream: Accept, Range, If-None-Match, If-Modified-Since (no cookies or credentials; our own User-Agent). Returned: Content-Type, Content-Length, Cache-Control, ETag, Last-Modified, Accept-Ranges and Content-Range (206), plus `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src \'none\'; img-src data:; style-src \'unsafe-inline\'` and `Cross-Origin-Resource-Policy: cross-origin`.',
      '- Size: the cap (20 MiB by default) is counted on the streamed bytes, whatever Content-Length says. The deployed API relays at most 4,500,000 bytes per response (Lambda\'s 6 MB payload limit, base64-encoded); a larger file is 502 `upstream_failed` with a hint: request a smaller image variant, or video in parts with a Range header.',
    ].join('\n'),
    query: ImageProxyQuery,
    responses: {
      200: {
        description: 'The media bytes with their content type.',
        contentType: 'image/*, video/*',
        headers: {
          'Cache-Control': { description: "The media host's caching policy (public, max-age=86400 when it sends none).", schema: { type: 'string' } },
          'Content-Security-Policy': { description: "default-src 'none'; img-src data:; style-src 'unsafe-inline'", schema: { type: 'string' } },
        },
      },
      206: { description: 'Part of the file, for a Range request (video seeking).', contentType: 'image/*, video/*' },
      304: { description: 'Not modified, for If-None-Match or If-Modified-Since.' },
    },
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
    summary: 'Capture a web page',
    description: [
      'Loads a live web page in Chromium and returns a PNG of its viewport, base64-encoded. `desktop` is a 1920×1080 viewport (PNG 1920×1080); `mobile` a 375×667 viewport at device scale factor 2 with touch and a phone user agent (PNG 750×1334). `colorScheme` reaches the page as `prefers-color-scheme`.',
      '',
      'The URL is normalised the WHATWG way (lower-case scheme and host, punycode, numeric hosts as dotted IPv4, default port and fragment removed); the response names the normalised URL. Only http(s) URLs without credentials whose host resolves to public addresses are captured: loopback, private, link-local (169.254.169.254 included), CGNAT, multicast, reserved and unspecified addresses are refused with 400 `invalid_url`, and so is every redirect to one; sub-requests to them are blocked while the rest of the page loads.',
      '',
      'A page counts as loaded after its `load` event once no request has been in flight for 50 ms (at most 1 s more), and its web fonts are ready. A page that has not loaded within the capture time-out (15 s unless configured) gives 408 `upstream_timeout`.',
      '',
      'Captures are cached per normalised URL, device type and colour scheme (1 hour unless configured); `cached` says whether this answer came from the cache, and `forceRefresh: true` captures again and replaces the entry. Every response to this operation, errors included, carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`.',
    ].join('\n'),
    body: { contentType: 'application/json', schema: ScreenshotRequest, maxBytes: 8192 },
    responses: {
      200: { description: 'The capture.', contentType: 'application/json', schema: ScreenshotResponse, headers: RATE_LIMIT_HEADERS },
    },
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
    summary: 'Purge the capture cache',
    description: 'Removes the cached captures of one URL (every device and colour scheme) or, with `all: true`, all of them. Needs the internal secret in `X-Easel-Internal-Secret`.',
    body: { contentType: 'application/json', schema: CachePurgeRequest, maxBytes: 8192 },
    responses: { 200: { description: 'What was purged.', contentType: 'application/json', schema: CachePurgeResponse } },
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
    summary: 'List releases',
    description:
      'Releases of the workspace, newest first. `limit` is 1 to 100 (default 50). When older releases remain the answer carries `nextCursor`: send it back as `cursor` for the next page. A cursor is opaque and only continues the list it came from; anything else is 400.',
    query: ReleaseListQuery,
    responses: { 200: json('The releases.', ReleaseList) },
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
    summary: 'Create a release',
    description:
      'Creates a release (201). With an `Idempotency-Key` (at most 128 characters, scoped to the workspace, remembered for 24 hours) a repeat with the same body returns the original release with 200, a repeat with another body is refused with 400, and concurrent requests create exactly one release. `description` is plain text: markup is rejected.',
    headers: IdempotencyHeaders,
    body: { ...JSON_BODY, schema: ReleaseCreate },
    responses: { 201: json('The created release.', Release), 200: json('The release an earlier request with this Idempotency-Key created.', Release) },
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
    summary: 'Register a source app',
    description: 'Registers a release-intake source app: the hosts it posts from (1 to 50 absolute URIs) and its provider (default generic).',
    body: { ...JSON_BODY, schema: SourceAppCreate },
    responses: { 201: json('The registered source app.', SourceApp) },
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
    summary: 'Create a signed upload URL',
    description:
      'Creates a pending asset and a presigned PUT valid for 15 minutes. The URL is bound to the declared content type and size (and SHA-256 when given): send the returned headers with the PUT, then complete the upload.',
    body: { ...JSON_BODY, schema: AssetUploadRequest },
    responses: { 201: json('Where and how to upload.', AssetUploadInstructions) },
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
    summary: 'Complete an upload',
    description:
      'Verifies the uploaded object (present, declared size and type, SHA-256 when declared — computed by the service) and marks the asset ready. Completing a ready asset again returns it unchanged. The body is optional.',
    params: AssetParams,
    body: { ...JSON_BODY, schema: AssetCompleteRequest, optional: true },
    responses: { 200: json('The ready asset.', Asset) },
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
    summary: 'Create a signed download URL',
    description: 'A presigned GET for a ready asset of this workspace, valid for 5 minutes. 404 when the asset is not in this workspace.',
    params: AssetParams,
    responses: { 200: json('The download URL.', AssetDownload) },
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
    summary: 'Delete an asset',
    description:
      'Queues the deletion of a ready asset (202); a worker deletes the object and marks the asset deleted. Needs the `asset:delete` feature (pro plan and up) and counts against the `api:write:minute` quota of the plan. 409 when the asset is in use or not ready for deletion.',
    params: AssetParams,
    extensions: entitlementExtension('asset:delete', 'api:write:minute'),
    responses: { 202: json('Deletion queued.', AssetDeletionAccepted) },
    errors: [400, 401, 403, 404, 409, 429, 503],
  },
  getMe: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/me',
    handler: 'functions/shell/get-me.ts',
    summary: 'Current user',
    description: 'Id, name, e-mail address and avatar of the signed-in user. Needs a session, not an active organization.',
    responses: { 200: json('The user.', MeResponse) },
  },
  getBootstrap: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/bootstrap',
    handler: 'functions/shell/get-bootstrap.ts',
    permission: 'organization:read',
    summary: 'Bootstrap the editor shell',
    description:
      'Everything the shell renders for the active organization: the user, the organization and every other one the user belongs to, the membership (role and resolved permissions), the workspace with its settings and product surfaces, the entitlements, the capability flags and counters. Call it after sign-in and again after any 401 or 403.',
    responses: { 200: json('The bootstrap view.', BootstrapResponse) },
  },
  listOrganizations: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations',
    handler: 'functions/shell/list-organizations.ts',
    summary: 'Organizations of the user',
    description: 'Every organization the user belongs to, with the role in each and which one is active in this session.',
    responses: { 200: json('The organizations.', OrganizationsResponse) },
  },
  getOrganization: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}',
    handler: 'functions/shell/get-organization.ts',
    permission: 'organization:read',
    summary: 'Active organization',
    description: 'Identity fields of the organization. It must be the active organization of the session (403 otherwise).',
    params: OrganizationParams,
    responses: { 200: json('The organization.', OrganizationResponse) },
  },
  listOrganizationMembers: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}/members',
    handler: 'functions/shell/list-organization-members.ts',
    permission: 'member:read',
    summary: 'Members of the active organization',
    description: 'Members of the active organization with their roles, owners first.',
    params: OrganizationParams,
    responses: { 200: json('The members.', MembersResponse) },
  },
  listOrganizationInvitations: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}/invitations',
    handler: 'functions/shell/list-organization-invitations.ts',
    permission: 'invitation:read',
    summary: 'Invitations of the active organization',
    description: 'Invitations of the active organization that have not expired, newest first, with their status.',
    params: OrganizationParams,
    responses: { 200: json('The invitations.', InvitationsResponse) },
  },
  getOrganizationSettings: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}/settings',
    handler: 'functions/shell/get-organization-settings.ts',
    permission: 'settings:read',
    summary: 'Workspace settings',
    description: 'Locale, time zone, default publishing time and description of the active organization’s workspace.',
    params: OrganizationParams,
    responses: { 200: json('The settings.', SettingsResponse) },
  },
  getOrganizationPermissions: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}/permissions',
    handler: 'functions/shell/get-organization-permissions.ts',
    permission: 'organization:read',
    summary: 'Permissions of the user',
    description: 'The user’s normalized role in the active organization and the permissions it resolves to.',
    params: OrganizationParams,
    responses: { 200: json('The role and permissions.', PermissionsResponse) },
  },
  getOrganizationCapabilities: {
    ...SHELL,
    method: 'GET',
    path: '/api/v1/organizations/{organizationId}/capabilities',
    handler: 'functions/shell/get-organization-capabilities.ts',
    permission: 'organization:read',
    summary: 'Capabilities of the user',
    description:
      'Capability flags (what the editor may offer, from the role and the plan) and the safe entitlement view: plan, status and features. Nothing secret.',
    params: OrganizationParams,
    responses: { 200: json('The capabilities.', CapabilitiesResponse) },
  },
  activateOrganization: {
    ...SHELL,
    method: 'POST',
    path: '/api/v1/organizations/{organizationId}/activate',
    handler: 'functions/shell/activate-organization.ts',
    summary: 'Activate an organization',
    description:
      'Makes the organization active for this session after checking that the user is a member and that it is not being deleted (403 otherwise). No request body. Returns the refreshed bootstrap view.',
    // Writes the session's active organization.
    access: { tables: { workspace: [...SHELL_READS, 'UpdateItem'] } },
    params: OrganizationParams,
    responses: { 200: json('The bootstrap view of the newly active organization.', BootstrapResponse) },
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
    summary: 'The editor',
    description:
      'The screenshot editor: capture a page, load a tweet or open an image, compose it (background, padding, corners, shadow, frame, aspect ratio, scale) and export it through this API. HTML by default; Markdown describing the editor and linking the reference pages when Accept includes text/markdown.',
    responses: { 200: text('The editor page, or its description in Markdown.', 'text/html, text/markdown') },
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
    summary: 'Editor script or stylesheet',
    description: 'A content-hashed file of the editor page, cacheable for a year; brotli or gzip when accepted. Names change with every release.',
    params: EditorAssetParams,
    responses: { 200: text('The file.', 'text/javascript, text/css') },
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
    summary: 'API guide',
    description:
      'Every operation with its authentication, limits and examples. HTML by default; Markdown when Accept includes text/markdown.',
    responses: { 200: text('The API guide.', 'text/html, text/markdown') },
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
    summary: 'Error reference',
    description:
      'One anchor per error code (meaning, status, how to resolve); the `documentation` link of every error envelope points here. HTML by default; Markdown when Accept includes text/markdown.',
    responses: { 200: text('The error reference.', 'text/html, text/markdown') },
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
    summary: 'OpenAPI description',
    description: 'The OpenAPI 3.1 description of every public operation, generated from the route table and the request schemas.',
    responses: { 200: text('OpenAPI 3.1 document.', 'application/json') },
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
    summary: 'Site overview for language models',
    description: 'A Markdown overview following the llms.txt convention.',
    responses: { 200: text('Markdown overview.', 'text/markdown') },
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
    summary: 'Full reference for language models',
    description: 'The full Markdown reference: every operation, its parameters, schemas and errors.',
    responses: { 200: text('Markdown reference.', 'text/markdown') },
    errors: [],
  },
} satisfies Record<string, RouteDef>;

export type Routes = typeof ROUTES;
export type OperationId = keyof Routes;

/** Rows with their operation ids, in table order. */
export const ROUTE_LIST: readonly (RouteDef & { operationId: OperationId })[] = Object.entries(ROUTES).map(
  ([operationId, def]) => ({ ...(def as RouteDef), operationId: operationId as OperationId }),
);

/** The function that answers everything the table does not: 404, 405 with Allow, CORS preflight. */
export const FALLBACK = {
  handler: 'functions/fallback/handle-unmatched.ts',
  memory: 256,
  timeout: 5,
} as const;
