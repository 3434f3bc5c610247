/**
 * Refuses a cookie-authenticated mutation sent from another site (CSRF): SameSite=Lax does not
 * cover sibling subdomains. The rules and why: docs/security.md, "Cross-site requests".
 */
import { config } from '#shared/config.ts';
import { ForbiddenError } from '#shared/errors.ts';
import { readSessionCookie } from '#shared/http/cookies.ts';
import { isHttps } from '#shared/http/headers.ts';
import type { AlwaysOn } from '#shared/http/middleware-types.ts';
import type { LambdaEvent } from '#shared/route-types.ts';

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

/** The API's own origin as configured and as this request reached it, and the editor's. */
function trusted(event: LambdaEvent): Set<string> {
  const host = event.headers?.host ?? event.requestContext?.domainName;
  const own = host ? [`${isHttps(event) ? 'https' : 'http'}://${host}`] : [];
  return new Set([config().publicBaseUrl, ...own, ...config().editorOrigins]);
}

/** Whether a browser's request came from a site this API trusts; a caller that is no browser sends neither header. */
export function fromTrustedSite(event: LambdaEvent): boolean {
  const headers = event.headers ?? {};
  // Referer stands in where an older browser left Origin out (OWASP's fallback).
  const origin = headers.origin ?? originOf(headers.referer);
  const site = headers['sec-fetch-site']?.toLowerCase();
  if (origin !== undefined) return trusted(event).has(origin);
  if (site === undefined) return true;
  // A same-site request may come from a sibling subdomain: without an Origin it cannot be told apart.
  return site === 'same-origin' || site === 'none';
}

/** Only where a cookie can authenticate, and only when no API key decides instead. */
export const originCheck: AlwaysOn = (meta) => {
  if (meta.auth !== 'apiKey' && meta.auth !== 'session') return { before: () => undefined };
  return {
    before: ({ event }) => {
      if (!MUTATIONS.has(event.requestContext?.http?.method?.toUpperCase() ?? '')) return;
      if (event.headers?.['x-api-key'] !== undefined || readSessionCookie(event).kind === 'none') return;
      if (!fromTrustedSite(event)) {
        throw new ForbiddenError(
          'A signed-in browser may change data only from this API or the editor: send the request from there, or use an X-API-Key instead of the session cookie.',
          `cross-site ${event.requestContext.http.method} from ${event.headers?.origin ?? event.headers?.['sec-fetch-site'] ?? 'a referer'}`,
        );
      }
    },
  };
};
