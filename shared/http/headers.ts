import { config } from '#shared/config.ts';
import type { CorsPolicy, LambdaEvent, LambdaResult } from '#shared/route-types.ts';

const EXPOSED =
  'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id, Idempotent-Replayed, Content-Disposition, Content-Length';
export const CORS_ALLOWED_HEADERS = ['content-type', 'x-api-key', 'idempotency-key', 'range'];

const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Case-insensitive header bag that keeps the casing of whoever set a header last. */
export class HeaderBag {
  private readonly entries = new Map<string, [string, string]>();
  set(name: string, value: string): this {
    this.entries.set(name.toLowerCase(), [name, value]);
    return this;
  }
  setDefault(name: string, value: string): this {
    if (!this.has(name)) this.set(name, value);
    return this;
  }
  has(name: string): boolean {
    return this.entries.has(name.toLowerCase());
  }
  get(name: string): string | undefined {
    return this.entries.get(name.toLowerCase())?.[1];
  }
  merge(headers: Record<string, string>): this {
    for (const [name, value] of Object.entries(headers)) this.set(name, value);
    return this;
  }
  toObject(): Record<string, string> {
    return Object.fromEntries([...this.entries.values()]);
  }
}

/** Edits the headers of the rendered result an always-on middleware's `after` or `onError` sees. */
export function editHeaders(request: { response: unknown }, edit: (headers: HeaderBag) => void): void {
  const result = request.response as LambdaResult | undefined;
  if (!result) return;
  const headers = new HeaderBag().merge((result.headers ?? {}) as Record<string, string>);
  edit(headers);
  result.headers = headers.toObject();
}

export function isHttps(event: LambdaEvent): boolean {
  return event.headers?.['x-forwarded-proto'] === 'https';
}

/** Baseline headers on every response; a handler's own value (e.g. the proxy's CSP) wins. */
export function applySecurityHeaders(headers: HeaderBag, event: LambdaEvent): void {
  headers.setDefault('X-Content-Type-Options', 'nosniff');
  headers.setDefault('Referrer-Policy', 'no-referrer');
  headers.setDefault('X-Frame-Options', 'DENY');
  const html = (headers.get('content-type') ?? '').startsWith('text/html');
  headers.setDefault('Content-Security-Policy', html ? HTML_CSP : API_CSP);
  if (isHttps(event)) headers.setDefault('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
  headers.setDefault('Cache-Control', 'no-store');
}

export function allowedOrigin(policy: CorsPolicy, origin: string | undefined): string | undefined {
  if (policy === 'public') return '*';
  if (!origin) return undefined;
  return config().editorOrigins.includes(origin) ? origin : undefined;
}

/** CORS headers of an actual (non-preflight) response. */
export function applyCors(headers: HeaderBag, policy: CorsPolicy, event: LambdaEvent): void {
  const origin = allowedOrigin(policy, event.headers?.origin);
  if (policy === 'editor') headers.set('Vary', appendVary(headers.get('vary'), 'Origin'));
  if (!origin) return;
  headers.set('Access-Control-Allow-Origin', origin);
  if (policy === 'editor') headers.set('Access-Control-Allow-Credentials', 'true');
  headers.set('Access-Control-Expose-Headers', EXPOSED);
}

export function appendVary(current: string | undefined, value: string): string {
  if (!current) return value;
  const parts = current.split(',').map((part) => part.trim().toLowerCase());
  return parts.includes(value.toLowerCase()) ? current : `${current}, ${value}`;
}
