/** Refuses a cookie-authenticated mutation from another site (CSRF; SameSite=Lax misses sibling subdomains): docs/security.md, "Cross-site requests". */
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

/** Where a cookie authenticates (no API key), and on sign-in rows always: a cross-site form could sign a browser into another's account. */
export const originCheck: AlwaysOn = (meta) => {
  if (meta.auth !== 'apiKey' && meta.auth !== 'session' && meta.auth !== 'signIn') return { before: () => undefined };
  return {
    before: ({ event }) => {
      if (!MUTATIONS.has(event.requestContext?.http?.method?.toUpperCase() ?? '')) return;
      const cookieDecides = event.headers?.['x-api-key'] === undefined && readSessionCookie(event).kind !== 'none';
      if (meta.auth !== 'signIn' && !cookieDecides) return;
      if (!fromTrustedSite(event)) {
        throw new ForbiddenError(
          meta.auth === 'signIn'
            ? 'A browser may sign in or out only from this API or the editor: open the editor and sign in there.'
            : 'A signed-in browser may change data only from this API or the editor: send the request from there, or use an X-API-Key instead of the session cookie.',
          `cross-site ${event.requestContext.http.method} from ${event.headers?.origin ?? event.headers?.['sec-fetch-site'] ?? 'a referer'}`,
        );
      }
    },
  };
};
