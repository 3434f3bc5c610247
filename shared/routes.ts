/**
 * The route table: the one list of operations. The CDK stack, the local server, the OpenAPI
 * generator, the fallback (404/405/preflight) handler and the tests all read it.
 *
 * Adding a route: a schema in shared/schemas, a handler file in functions/, one row here.
 */
import type { RouteDef } from '#shared/http/types.ts';
import { CachePurgeRequest, CachePurgeResponse, ScreenshotRequest, ScreenshotResponse } from '#shared/schemas/screenshot.ts';

const text = (description: string, contentType: string) => ({ description, contentType });

/** The X-RateLimit-* headers every response of a rate-limited route carries. */
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix epoch milliseconds when the window resets.', schema: { type: 'integer' } },
} as const;

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
    access: { tables: { cache: 'write', rate: 'write' }, buckets: { cache: 'write' } },
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
    access: { tables: { cache: 'write' }, buckets: { cache: 'write' } },
    // Maintainers only: never in /openapi.json, the llms files or the site pages.
    listed: false,
    tag: 'Internal',
    summary: 'Purge the capture cache',
    description: 'Removes the cached captures of one URL (every device and colour scheme) or, with `all: true`, all of them. Needs the internal secret in `X-Easel-Internal-Secret`.',
    body: { contentType: 'application/json', schema: CachePurgeRequest, maxBytes: 8192 },
    responses: { 200: { description: 'What was purged.', contentType: 'application/json', schema: CachePurgeResponse } },
    errors: [400, 401, 413, 503],
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
