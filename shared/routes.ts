/**
 * The route table: the one list of operations. The CDK stack, the local server, the OpenAPI
 * generator, the fallback (404/405/preflight) handler and the tests all read it.
 *
 * Adding a route: a schema in shared/schemas, a handler file in functions/, one row here.
 */
import type { RouteDef } from '#shared/http/types.ts';
import { EXPORT_DESCRIPTION, EXPORT_MAX_BODY_BYTES, ExportRequest } from '#shared/schemas/export.ts';
import { ImageProxyQuery } from '#shared/schemas/media.ts';
import { TweetErrorEnvelope, TweetFailureEnvelope, TweetParams, TweetResponse } from '#shared/schemas/tweets.ts';
import { MEDIA_HOSTS } from '#shared/net/media-hosts.ts';

const text = (description: string, contentType: string) => ({ description, contentType });

// `satisfies` keeps each row's literal schema types, so handlers get typed input.
export const ROUTES = {
  getHome: {
    method: 'GET',
    path: '/',
    handler: 'functions/site/get-home.ts',
    auth: 'none',
    cors: 'public',
    memory: 256,
    timeout: 5,
    access: {},
    listed: true,
    tag: 'Discovery',
    summary: 'Site home page',
    description: 'What Easel is and where to start. HTML by default; Markdown when Accept includes text/markdown.',
    responses: { 200: text('The home page.', 'text/html, text/markdown') },
    errors: [],
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
