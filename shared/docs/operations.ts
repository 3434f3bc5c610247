/**
 * What the documents say about each operation, keyed by operation id. Kept out of the route rows
 * so only the functions serving the documents bundle this prose and the response schemas.
 */
import type { AnySchema, OperationDoc, RouteDef } from '#shared/route-types.ts';
import { ROUTE_LIST } from '#shared/routes.ts';
import type { OperationId } from '#shared/routes.ts';
import { MEDIA_HOSTS } from '#shared/net/media-hosts.ts';
import { Asset, AssetDeletionAccepted, AssetDownload, AssetList, AssetUploadInstructions } from '#shared/schemas/assets.ts';
import { SIGN_IN_DOCS } from '#shared/docs/sign-in-operations.ts';
import { EXPORT_MAX_BODY_BYTES, EXPORT_MAX_PIXELS, groupThousands, presetTable } from '#shared/schemas/export.ts';
import {
  BootstrapResponse,
  CapabilitiesResponse,
  InvitationsResponse,
  MeResponse,
  MembersResponse,
  OrganizationResponse,
  OrganizationsResponse,
  PermissionsResponse,
  SettingsResponse,
} from '#shared/schemas/identity.ts';
import { Release, ReleaseList } from '#shared/schemas/releases.ts';
import { MAX_SHOTS_PER_RUN, ReleaseShots, ShotRun } from '#shared/schemas/shots.ts';
import {
  CachePurgeResponse,
  MAX_CAPTURE_HEIGHT_PX,
  MAX_CAPTURE_PIXELS,
  MAX_DELAY_MS,
  MAX_HIDE_SELECTORS,
  ScreenshotResponse,
} from '#shared/schemas/screenshot.ts';
import { IntakeAnswer, MAX_INTAKE_BYTES } from '#shared/schemas/intake.ts';
import { SourceApp } from '#shared/schemas/source-apps.ts';
import { TweetErrorEnvelope, TweetFailureEnvelope, TweetResponse } from '#shared/schemas/tweets.ts';

const text = (description: string, contentType: string) => ({ description, contentType });
/** On the answer a repeated Idempotency-Key gets again. */
const REPLAYED = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key; absent otherwise.',
    schema: { type: 'string' as const },
  },
};
const KEYED =
  'With an `Idempotency-Key` (at most 128 characters, scoped to the workspace and the operation, remembered for 24 hours) a repeat of the same request gets the first answer again, status included, marked `Idempotent-Replayed: true`; another request with the key is refused with 400. A request that failed keeps nothing, so a retry with its key runs again.';
const json = <S extends AnySchema>(description: string, schema: S) => ({ description, contentType: 'application/json', schema });

// Not toLocaleString: ICU number formatting is slow on first use (see groupThousands).
const MB = (bytes: number) => groupThousands(bytes);

/** The export operation's description: checks, limits and each preset's settings. */
export const EXPORT_DESCRIPTION = [
  'Recompresses an uploaded PNG, JPEG or WebP into PNG, JPEG or WebP. The answer is the raw image bytes (not JSON) with the output\'s `Content-Type` and `Content-Disposition: attachment; filename="<upload name>.<png|jpg|webp>"`.',
  '',
  `- **Checks:** the \`image\` part must declare image/png, image/jpeg or image/webp (else 400 \`unsupported_value\`) and its bytes must decode as that type (else 400 \`invalid_request\`). The request body is at most ${MB(EXPORT_MAX_BODY_BYTES)} bytes (4 MiB): Lambda accepts 6 MB of event and API Gateway base64-encodes the upload. Images over ${MB(EXPORT_MAX_PIXELS)} pixels are refused from their header, before decoding (decompression bombs). An output larger than 4,500,000 bytes, the most a response can carry, is refused too. All three are 413 \`invalid_request\` with the \`limit\`.`,
  '- **Processing:** auto-oriented from EXIF; converted to sRGB from any embedded ICC profile; written without EXIF, GPS, XMP, IPTC or ICC data; transparency kept for PNG and WebP, flattened onto white for JPEG; an animated WebP gives its first frame.',
  '- **Presets:** chosen by measuring bytes and time on a screenshot-like and a photo-like input (sharp 0.35.5 on a 2-core machine; times include decoding):',
  '',
  presetTable(),
  '',
  'Why these: JPEG medium (mozjpeg) is about 23 % smaller than libjpeg-turbo at the same quality setting; JPEG high keeps full chroma because subsampling smears coloured text. WebP effort 6 took 2–2.5× the time for 1–13 % fewer bytes. PNG high uses zlib level 6 because level 9 took 3–4× longer on the screenshot (2.8× on the photo) and was not smaller on it. The palette presets are written unfiltered: adaptive filtering of palette indices measured 21 % (screenshot) to 62 % (photo) larger, and the PNG specification recommends no filter for indexed images.',
].join('\n');

/** The X-RateLimit-* headers every response of a rate-limited route carries. */
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix epoch milliseconds when the window resets.', schema: { type: 'integer' } },
} as const;

/** Every operation's documentation; the type makes it name exactly the ids of the route table. */
export const OPERATION_DOCS = {
  postExport: {
    summary: 'Recompress an image',
    description: EXPORT_DESCRIPTION,
    responses: {
      200: {
        description: 'The recompressed image: raw bytes (not JSON) of the requested format.',
        contentType: 'image/png, image/jpeg, image/webp',
        headers: {
          'Content-Disposition': { description: 'attachment; filename="<upload name>.<png|jpg|webp>"', schema: { type: 'string' } },
        },
      },
    },
  },
  getTweet: {
    summary: 'Look up a public tweet',
    description:
      'The public payload of a tweet by its numeric status ID, as the syndication API behind embedded tweets returns it. A found tweet is cached briefly in the service and may be cached by a CDN (`Cache-Control: public, s-maxage=…, stale-while-revalidate=…`); failures are never cached. A deleted or private tweet (tombstone) or an unknown ID is 404; an upstream failure, time-out or unusable answer is 500. Both error bodies carry `data: null` besides the envelope, so they also read as a tweet response.',
    responses: {
      200: {
        description: 'The tweet.',
        schema: TweetResponse,
        headers: { 'Cache-Control': { description: 'How long browsers and shared caches may keep the answer.', schema: { type: 'string' } } },
      },
      404: {
        description: 'Not Found: `not_found`, no public tweet has this ID (unknown, deleted or private). The envelope plus `data: null`.',
        schema: TweetErrorEnvelope,
      },
      500: {
        description:
          'Internal Server Error: `upstream_failed` when the tweet upstream fails, or `internal_error`. The envelope plus `data: null` for `upstream_failed`.',
        schema: TweetFailureEnvelope,
      },
    },
  },
  getImageProxy: {
    summary: 'Relay a social-network media file',
    description: [
      `Streams an image or video from ${MEDIA_HOSTS.join(', ')} through this origin with \`Access-Control-Allow-Origin: *\`, so the editor can draw it on a canvas without tainting it.`,
      '',
      '- Only https URLs on exactly those hosts (no subdomains, no other port, no user:password@); anything else is 403 `forbidden_domain`. Up to 3 redirects are followed, each target checked the same way, and the connected address must be public.',
      '- Only image/* and video/* responses are relayed, never SVG; other types are 502 `upstream_failed`, as is a refusal (4xx/5xx) by the media host. A host that cannot be reached or times out is 500 `upstream_failed`.',
      "- Forwarded upstream: Accept, Range, If-None-Match, If-Modified-Since (no cookies or credentials; our own User-Agent). Returned: Content-Type, Content-Length, Cache-Control, ETag, Last-Modified, Accept-Ranges and Content-Range (206), plus `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src 'none'; img-src data:; style-src 'unsafe-inline'` and `Cross-Origin-Resource-Policy: cross-origin`.",
      "- Size: the cap (20 MiB by default) is counted on the streamed bytes, whatever Content-Length says. The deployed API relays at most 4,500,000 bytes per response (Lambda's 6 MB payload limit, base64-encoded); a larger file is 502 `upstream_failed` with a hint: request a smaller image variant, or video in parts with a Range header.",
    ].join('\n'),
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
  },
  capturePage: {
    summary: 'Capture a web page',
    description: [
      'Loads a live web page in Chromium and returns a PNG of its viewport, base64-encoded. `desktop` is a 1920×1080 viewport (PNG 1920×1080); `mobile` a 375×667 viewport at device scale factor 2 with touch and a phone user agent (PNG 750×1334). `colorScheme` reaches the page as `prefers-color-scheme`.',
      '',
      'The URL is normalised the WHATWG way (lower-case scheme and host, punycode, numeric hosts as dotted IPv4, default port and fragment removed); the response names the normalised URL. Only http(s) URLs without credentials whose host resolves to public addresses are captured: loopback, private, link-local (169.254.169.254 included), CGNAT, multicast, reserved and unspecified addresses are refused with 400 `invalid_url`, and so is every redirect to one; sub-requests to them are blocked while the rest of the page loads.',
      '',
      'A page counts as loaded after its `load` event once no request has been in flight for 50 ms (at most 1 s more), and its web fonts are ready. A page that has not loaded within the capture time-out (15 s unless configured) gives 408 `upstream_timeout`.',
      '',
      `Options: \`fullPage\` captures the whole page (scrolled through first, so lazy images and content loaded on scroll are there; sticky headers appear once), at most ${MAX_CAPTURE_HEIGHT_PX.toLocaleString('en')} image pixels tall and ${MAX_CAPTURE_PIXELS.toLocaleString('en')} pixels in all; a taller page is cut and the answer carries \`truncated: true\` and \`capturedHeight\`. \`selector\` captures the first matching element (none: 404 \`not_found\`). \`waitForSelector\` waits until a match is visible (never: 408 \`upstream_timeout\`). \`delay\` waits up to ${MAX_DELAY_MS.toLocaleString('en')} ms more. \`hideSelectors\` hides up to ${MAX_HIDE_SELECTORS} selectors' matches with an injected style sheet. \`scale\` (1, 2 or 3) sets the device scale factor. Selectors are CSS, handed to the page's querySelector as data, never run as script; an invalid one is 400 \`invalid_request\` before the page is loaded. A PNG too large for a response is recompressed to a palette; still too large is 500 \`upstream_failed\`.`,
      '',
      "For the pages people ship: `viewport` sets the viewport size (the device type still decides mobile emulation, user agent and default scale), `userAgent` the user agent, `css` adds a style sheet (adopted, so only ever CSS), `click` clicks the first match once the page is ready and before `waitForSelector` (none: 404 `not_found`), and `reducedMotion` sends `prefers-reduced-motion: reduce` and finishes animations and transitions before the picture. A page behind a login takes `headers` (sent only to the target URL's origin; Host, Cookie, hop-by-hop, proxy and other forbidden headers are 400) and `cookies` (set for its host only); such a capture is never read from or written to the cache, and its credentials are never logged.",
      '',
      'Captures are cached per normalised URL, device type, colour scheme and options (1 hour unless configured); `cached` says whether this answer came from the cache, and `forceRefresh: true` captures again and replaces the entry. Every response to this operation, errors included, carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`.',
    ].join('\n'),
    responses: {
      200: { description: 'The capture.', contentType: 'application/json', schema: ScreenshotResponse, headers: RATE_LIMIT_HEADERS },
    },
  },
  purgeCache: {
    summary: 'Purge the capture cache',
    description:
      'Removes the cached captures of one URL (every device and colour scheme) or, with `all: true`, all of them. Needs the internal secret in `X-Easel-Internal-Secret`.',
    responses: { 200: { description: 'What was purged.', contentType: 'application/json', schema: CachePurgeResponse } },
  },
  listReleases: {
    summary: 'List releases',
    description:
      'Releases of the workspace, newest first. `limit` is 1 to 100 (default 50). When older releases remain the answer carries `nextCursor`: send it back as `cursor` for the next page. A cursor is opaque and only continues the list it came from; anything else is 400.',
    responses: { 200: json('The releases.', ReleaseList) },
  },
  createRelease: {
    summary: 'Create a release',
    description:
      'Creates a release (201). With an `Idempotency-Key` (at most 128 characters, scoped to the workspace, remembered for 24 hours) a repeat with the same body returns the original release with 200, a repeat with another body is refused with 400, and concurrent requests create exactly one release. `description` is plain text: markup is rejected.',
    responses: {
      201: json('The created release.', Release),
      200: { ...json('The release an earlier request with this Idempotency-Key created.', Release), headers: REPLAYED },
    },
  },
  runReleaseShots: {
    summary: "Run a release's shots",
    description: `Captures pages into the workspace for the release (202 at once; a worker takes each shot from a queue). Each shot is a name and the capture options of POST /api/screenshot (not headers or cookies), plus \`threshold\` and \`mask\` for the comparison; without \`shots\` the release's sourceUrls are photographed. \`matrix\` multiplies the shots by device type and colour scheme. At most ${MAX_SHOTS_PER_RUN} shots a run, each counted against the plan's \`shots:month\` quota (429 \`workspace_quota_exceeded\` when the run would pass it, and then nothing is queued). A shot whose URL is on a source app's allowedHosts is captured with that app's login, read from the secret its secretReference names. A later run's shot replaces the one of the same name. Each done shot is a \`release-shot\` asset, compared with the same-named shot of the nearest earlier release. ${KEYED}`,
    responses: { 202: { ...json('The run, its shots queued.', ShotRun), headers: REPLAYED } },
  },
  listReleaseShots: {
    summary: "Read a release's shots",
    description:
      'Every shot of the release by name: its status (queued, running, done, failed with the error envelope), its asset, size and capture report, the login it was captured with and what changed since the previous release. Poll it until no shot is queued or running.',
    responses: { 200: json("The release's shots.", ReleaseShots) },
  },
  createSourceApp: {
    summary: 'Register a source app',
    description: `Registers a release-intake source app: the hosts it posts from (1 to 50 absolute URIs) and its provider (default generic). ${KEYED}`,
    responses: { 201: { ...json('The registered source app.', SourceApp), headers: REPLAYED } },
  },
  takeInRelease: {
    summary: "Take in a source app's release",
    description: `A source app's webhook: its release, taken in as a draft release of its workspace. Signed with the \`webhookSecret\` of the secret the app's \`secretReference\` names, over the exact body: provider \`github\` with \`X-Hub-Signature-256\` (\`X-GitHub-Event: release\`, actions \`published\` and \`edited\`; the webhook's content type \`application/json\`), any other provider with the Standard Webhooks headers (\`webhook-id\`, \`webhook-timestamp\` within 5 minutes, \`webhook-signature\`) and a \`StandardReleaseEvent\`. A wrong or missing signature is 401 and stores nothing. A published release becomes a draft (one per app's external id and provider's release id): its title, a benefit statement from the notes' first paragraph or sentence, the notes as plain text, and as sourceUrls the linked pages on the app's allowedHosts, whose shots (desktop, light) are queued at once. An edit rewrites the draft. Other events are answered 202 and ignored. A delivery id seen before gets the first answer again, marked \`Idempotent-Replayed: true\`. At most ${MAX_INTAKE_BYTES} bytes; 60 deliveries a minute per source app. The whole of it: docs/identity.md, "Release intake".`,
    responses: {
      202: { ...json('What the delivery did: the draft created or updated (and its shots), or why it was ignored.', IntakeAnswer), headers: REPLAYED },
    },
  },
  createAssetUpload: {
    summary: 'Create a signed upload URL',
    description: `Creates a pending asset and a presigned PUT valid for 15 minutes. The URL is bound to the declared content type and size (and SHA-256 when given): send the returned headers with the PUT, then complete the upload. ${KEYED} A replayed URL may have expired: a new upload takes a new key.`,
    responses: { 201: { ...json('Where and how to upload.', AssetUploadInstructions), headers: REPLAYED } },
  },
  completeAssetUpload: {
    summary: 'Complete an upload',
    description: `Verifies the uploaded object (present, declared size and type, SHA-256 when declared — computed by the service) and marks the asset ready. Completing a ready asset again returns it unchanged. The body is optional. ${KEYED}`,
    responses: { 200: { ...json('The ready asset.', Asset), headers: REPLAYED } },
  },
  getAssetDownloadUrl: {
    summary: 'Create a signed download URL',
    description: 'A presigned GET for a ready asset of this workspace, valid for 5 minutes. 404 when the asset is not in this workspace.',
    responses: { 200: json('The download URL.', AssetDownload) },
  },
  deleteAsset: {
    summary: 'Delete an asset',
    description:
      'Queues the deletion of a ready asset (202); a worker deletes the object and marks the asset deleted. Needs the `asset:delete` feature (pro plan and up) and counts against the `api:write:minute` quota of the plan. 409 when the asset is in use or not ready for deletion.',
    responses: { 202: json('Deletion queued.', AssetDeletionAccepted) },
  },
  listAssets: {
    summary: 'List assets',
    description:
      'The assets of the workspace, newest first, up to `limit` (1–100, default 20) a page; deleted ones are left out. Each ready asset carries a signed download URL that lives five minutes; pending and deleting ones carry null. When older assets remain, `nextCursor` goes back as `?cursor=` for the next page.',
    responses: { 200: json('The assets.', AssetList) },
  },
  ...SIGN_IN_DOCS,
  getMe: {
    summary: 'Current user',
    description: 'Id, name, e-mail address and avatar of the signed-in user. Needs a session, not an active organization.',
    responses: { 200: json('The user.', MeResponse) },
  },
  getBootstrap: {
    summary: 'Bootstrap the editor shell',
    description:
      'Everything the shell renders for the active organization: the user, the organization and every other one the user belongs to, the membership (role and resolved permissions), the workspace with its settings and product surfaces, the entitlements, the capability flags and counters. Call it after sign-in and again after any 401 or 403.',
    responses: { 200: json('The bootstrap view.', BootstrapResponse) },
  },
  listOrganizations: {
    summary: 'Organizations of the user',
    description: 'Every organization the user belongs to, with the role in each and which one is active in this session.',
    responses: { 200: json('The organizations.', OrganizationsResponse) },
  },
  getOrganization: {
    summary: 'Active organization',
    description: 'Identity fields of the organization. It must be the active organization of the session (403 otherwise).',
    responses: { 200: json('The organization.', OrganizationResponse) },
  },
  listOrganizationMembers: {
    summary: 'Members of the active organization',
    description: 'Members of the active organization with their roles, owners first.',
    responses: { 200: json('The members.', MembersResponse) },
  },
  listOrganizationInvitations: {
    summary: 'Invitations of the active organization',
    description: 'Invitations of the active organization that have not expired, newest first, with their status.',
    responses: { 200: json('The invitations.', InvitationsResponse) },
  },
  getOrganizationSettings: {
    summary: 'Workspace settings',
    description: 'Locale, time zone, default publishing time and description of the active organization’s workspace.',
    responses: { 200: json('The settings.', SettingsResponse) },
  },
  getOrganizationPermissions: {
    summary: 'Permissions of the user',
    description: 'The user’s normalized role in the active organization and the permissions it resolves to.',
    responses: { 200: json('The role and permissions.', PermissionsResponse) },
  },
  getOrganizationCapabilities: {
    summary: 'Capabilities of the user',
    description:
      'Capability flags (what the editor may offer, from the role and the plan) and the safe entitlement view: plan, status and features. Nothing secret.',
    responses: { 200: json('The capabilities.', CapabilitiesResponse) },
  },
  activateOrganization: {
    summary: 'Activate an organization',
    description:
      'Makes the organization active for this session after checking that the user is a member and that it is not being deleted (403 otherwise). No request body. Returns the refreshed bootstrap view.',
    responses: { 200: json('The bootstrap view of the newly active organization.', BootstrapResponse) },
  },
  getHome: {
    summary: 'The editor',
    description:
      'The screenshot editor: capture a page, load a tweet or open an image, compose it (background, padding, corners, shadow, frame, aspect ratio, scale) and export it through this API. HTML by default; Markdown describing the editor and linking the reference pages when Accept includes text/markdown.',
    responses: { 200: text('The editor page, or its description in Markdown.', 'text/html, text/markdown') },
  },
  getEditorAsset: {
    summary: 'Editor script or stylesheet',
    description: 'A content-hashed file of the editor page, cacheable for a year; brotli or gzip when accepted. Names change with every release.',
    responses: { 200: text('The file.', 'text/javascript, text/css') },
  },
  getDocs: {
    summary: 'API guide',
    description: 'Every operation with its authentication, limits and examples. HTML by default; Markdown when Accept includes text/markdown.',
    responses: { 200: text('The API guide.', 'text/html, text/markdown') },
  },
  getErrorDocs: {
    summary: 'Error reference',
    description:
      'One anchor per error code (meaning, status, how to resolve); the `documentation` link of every error envelope points here. HTML by default; Markdown when Accept includes text/markdown.',
    responses: { 200: text('The error reference.', 'text/html, text/markdown') },
  },
  getOpenApi: {
    summary: 'OpenAPI description',
    description: 'The OpenAPI 3.1 description of every public operation, generated from the route table and the request schemas.',
    responses: { 200: text('OpenAPI 3.1 document.', 'application/json') },
  },
  getLlms: {
    summary: 'Site overview for language models',
    description: 'A Markdown overview following the llms.txt convention.',
    responses: { 200: text('Markdown overview.', 'text/markdown') },
  },
  getLlmsFull: {
    summary: 'Full reference for language models',
    description: 'The full Markdown reference: every operation, its parameters, schemas and errors.',
    responses: { 200: text('Markdown reference.', 'text/markdown') },
  },
} satisfies Record<OperationId, OperationDoc>;

/** The rows of the route table with their documentation, in table order. */
export const FULL_ROUTE_LIST: readonly (RouteDef & { operationId: OperationId })[] = ROUTE_LIST.map((row) => ({ ...row, ...OPERATION_DOCS[row.operationId] }));
