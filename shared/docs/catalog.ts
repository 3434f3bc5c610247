/**
 * What the published documents know about the API, from the route table and error catalog.
 * Every document goes through here, so they cannot disagree about an operation.
 */
import { createRequire } from 'node:module';
import { ERROR_CODES, ERROR_CODE_LIST } from '#shared/errors.ts';
import type { ErrorCode } from '#shared/errors.ts';
import { SESSION_COOKIE } from '#shared/identity/principal.ts';
import type { RouteDef } from '#shared/route-types.ts';

// Required, not imported: an ESM import of node:http reads every export, and its lazy WebSocket getters load undici at cold start.
const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof import('node:http');

/** A route-table row with its operation id, as FULL_ROUTE_LIST holds it. */
export type DocRoute = RouteDef & { operationId: string };

export const PRODUCT = 'Easel';
export const API_VERSION = '1.0.0';
export const API_KEY_HEADER = 'X-API-Key';
export { SESSION_COOKIE };

/** One sentence on what Easel is: the blockquote of llms.txt and the lead of every page. */
export const SUMMARY =
  'Easel is the HTTP API behind a browser screenshot editor: anonymous utilities that capture web pages, recompress images, look up public tweets and proxy social-media images, plus workspace operations for releases and assets under /api/v1.';

export const PAGES = {
  home: '/',
  docs: '/docs',
  errors: '/docs/errors',
  openapi: '/openapi.json',
  llms: '/llms.txt',
  llmsFull: '/llms-full.txt',
} as const;

// A tag missing here gets a description built from its operations' summaries.
const TAG_DESCRIPTIONS: Record<string, string> = {
  Discovery: 'Machine-readable descriptions of the API and the site pages. No credentials.',
  Utilities: 'Anonymous editor utilities governed by per-IP limits. No credentials.',
  Screenshot: 'Capture a live web page as a base64 PNG. No credentials; limited per IP address.',
  Export: 'Recompress an uploaded image into PNG, JPEG or WebP. No credentials.',
  Tweets: 'Public tweet payloads by numeric status ID. No credentials.',
  Media: 'Allowlisted social-network media streamed through the service origin. No credentials.',
  Releases: 'Releases of a workspace. Organization API key with the scope named on each operation.',
  'Source apps': 'Release-intake source apps of a workspace. Organization API key with the scope named on each operation.',
  Assets: 'Signed upload and download URLs and asset lifecycle. Organization API key with the scope named on each operation.',
  Workspace: 'Workspace operations under /api/v1. Organization API key with the scope named on each operation.',
  Shell: 'Rendering hints for the signed-in editor shell. Session cookie only; API keys are refused.',
  'Sign-in':
    'Signing in with an e-mail code or a passkey, which issues the session cookie; the signed-in user’s own sessions, passkeys and invitations. Codes are limited per IP and per address.',
};

/** Rows published in the documents. Internal routes never are, whatever their `listed` says. */
export function publicRoutes(routes: readonly DocRoute[]): DocRoute[] {
  return routes.filter((row) => row.listed && row.auth !== 'internal');
}

/** Tags in order of first use, each with a description. */
export function tagsOf(routes: readonly DocRoute[]): { name: string; description: string; routes: DocRoute[] }[] {
  const tags = new Map<string, DocRoute[]>();
  for (const row of routes) {
    const rows = tags.get(row.tag) ?? [];
    rows.push(row);
    tags.set(row.tag, rows);
  }
  return [...tags.entries()].map(([name, rows]) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `${rows.map((row) => row.summary).join('; ')}.`,
    routes: rows,
  }));
}

/** The HTTP reason phrase of a status (405 → Method Not Allowed). */
export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? `Status ${status}`;
}

export function codesForStatus(status: number): ErrorCode[] {
  return ERROR_CODE_LIST.filter((code) => (ERROR_CODES[code].statuses as readonly number[]).includes(status));
}

/** Codes an operation can answer with at a status: only anonymous routes refuse a domain, only entitled ones a plan. */
export function codesFor(row: DocRoute, status: number): ErrorCode[] {
  const anonymous = row.auth === 'none';
  return codesForStatus(status).filter((code) => {
    switch (code) {
      case 'forbidden_domain':
        return anonymous;
      case 'forbidden':
      case 'unauthorized':
        return !anonymous;
      case 'workspace_feature_not_entitled':
        return entitlementOf(row) !== undefined;
      case 'rate_limited':
        return tooManyRequestsKind(row) === 'rate';
      case 'workspace_quota_exceeded':
        return tooManyRequestsKind(row) === 'quota';
      default:
        return true;
    }
  });
}

/** The row's error statuses plus those the shared middleware adds (validation, body size, auth). */
export function errorStatuses(row: DocRoute): number[] {
  const statuses = new Set(row.errors);
  if (row.params || row.query || row.headers || row.body) statuses.add(400);
  if (row.body) statuses.add(413);
  if (row.auth === 'apiKey' || row.auth === 'session') {
    statuses.add(401);
    statuses.add(403);
  }
  return [...statuses].filter((status) => !(status in row.responses)).sort((a, b) => a - b);
}

/** The operation's entitlement extension (`x-easel-entitlement` or similar), if it carries one. */
export function entitlementOf(row: DocRoute): { key: string; value: unknown } | undefined {
  return extensionMatching(row, /entitle/i);
}

/** The operation's rate-limit extension (`x-easel-rate-limit` or similar), if it carries one. */
export function rateLimitOf(row: DocRoute): { key: string; value: unknown } | undefined {
  return extensionMatching(row, /rate-?limit/i);
}

function extensionMatching(row: DocRoute, pattern: RegExp): { key: string; value: unknown } | undefined {
  const entry = Object.entries(row.extensions ?? {}).find(([key]) => pattern.test(key));
  return entry ? { key: entry[0], value: entry[1] } : undefined;
}

/** The envelope a 429 of this operation carries: per-IP limits on anonymous routes, workspace quotas elsewhere. */
export function tooManyRequestsKind(row: DocRoute): 'rate' | 'quota' {
  return (row.auth === 'none' || row.auth === 'signIn' || row.auth === 'webhook') && !row.permission ? 'rate' : 'quota';
}

/** How the operation authenticates, in one plain sentence (Markdown code spans allowed). */
export function authSentence(row: DocRoute): string {
  const permission = row.permission ? `\`${row.permission}\`` : undefined;
  switch (row.auth) {
    case 'none':
      return 'None: anonymous. An `Authorization` header grants nothing.';
    case 'apiKey':
      return permission
        ? `Organization API key in \`${API_KEY_HEADER}\` with the scope ${permission}, or a signed-in session (cookie \`${SESSION_COOKIE}\`) whose member holds the permission ${permission}.`
        : `Organization API key in \`${API_KEY_HEADER}\`, or a signed-in session (cookie \`${SESSION_COOKIE}\`).`;
    case 'session':
      return `Session cookie \`${SESSION_COOKIE}\` only; a request carrying \`${API_KEY_HEADER}\` is refused with 403.${
        permission ? ` The member needs the permission ${permission}.` : ''
      }`;
    case 'signIn':
      return `None: this operation signs in or out. It reads the \`${SESSION_COOKIE}\` cookie when one is sent; from a browser, only the API's own pages and the editor's origins may call it.`;
    case 'internal':
      return 'Maintainer secret; not part of the public interface.';
    case 'webhook':
      return "The source app's signature over the exact body, with the `webhookSecret` of its secret: `X-Hub-Signature-256` for provider `github`, the Standard Webhooks headers for any other. No API key or session counts.";
  }
}

/** How the operation authenticates, in a few words, for link lists. */
export function authLabel(row: DocRoute): string {
  switch (row.auth) {
    case 'none':
      return 'no credentials';
    case 'apiKey':
      return row.permission ? `API key with scope \`${row.permission}\`` : 'API key';
    case 'session':
      return row.permission ? `session cookie with permission \`${row.permission}\`` : 'session cookie';
    case 'signIn':
      return 'no credentials (sign-in)';
    case 'internal':
      return 'maintainers only';
    case 'webhook':
      return "the source app's webhook signature";
  }
}

/** `{ feature: 'asset:delete', minimumPlan: 'pro' }` → 'feature asset:delete, minimum plan pro'. */
export function describeValue(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map(describeValue).join(', ');
  return Object.entries(value)
    .map(([key, item]) => `${words(key)} ${describeValue(item)}`)
    .join(', ');
}

function words(key: string): string {
  return key
    .replace(/^x-/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]/g, ' ')
    .toLowerCase();
}

/** A rate-limit extension value as a phrase ('20 requests per 60 s per IP address'), when it has the usual shape. */
export function describeRateLimit(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { limit, windowSeconds, per } = value as { limit?: unknown; windowSeconds?: unknown; per?: unknown };
    if (typeof limit === 'number' && typeof windowSeconds === 'number') {
      const window = windowSeconds === 60 ? 'minute' : windowSeconds === 3600 ? 'hour' : `${windowSeconds} s`;
      return `${limit} requests per ${window} per ${typeof per === 'string' ? `\`${per}\`` : 'IP address'}`;
    }
  }
  return describeValue(value);
}

/** Headers a 429 carries, by kind; the OpenAPI responses and the error reference both list them. */
export const TOO_MANY_REQUESTS_HEADERS = {
  rate: {
    'Retry-After': { description: 'Seconds to wait before retrying.', type: 'integer' },
    'X-RateLimit-Limit': { description: 'Requests allowed per window.', type: 'integer' },
    'X-RateLimit-Remaining': { description: 'Requests left in the current window.', type: 'integer' },
    'X-RateLimit-Reset': { description: 'Unix epoch milliseconds when the window resets.', type: 'integer' },
  },
  quota: {
    'Retry-After': { description: 'Seconds until the quota window resets.', type: 'integer' },
  },
} as const;

export const ALLOW_HEADER = { Allow: { description: 'The methods this path accepts, comma-separated.', type: 'string' } } as const;

/** idempotency-key → Idempotency-Key: event headers arrive lowercased, documents show the usual casing. */
export function headerCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

export function absolute(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}
