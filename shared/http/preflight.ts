import { CORS_ALLOWED_HEADERS, allowedOrigin } from '#shared/http/headers.ts';
import { reply } from '#shared/http/reply.ts';
import type { Reply } from '#shared/http/reply.ts';
import type { CorsPolicy, LambdaEvent } from '#shared/route-types.ts';

/** A disallowed origin gets 204 without Access-Control-* headers, which browsers treat as a refusal. */
export function preflight(event: LambdaEvent, allow: readonly string[], policy: CorsPolicy): Reply {
  const origin = allowedOrigin(policy, event.headers?.origin);
  const headers: Record<string, string> = { Allow: [...allow, 'OPTIONS'].join(', '), 'Cache-Control': 'no-store' };
  if (origin) {
    const requested = (event.headers?.['access-control-request-headers'] ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => CORS_ALLOWED_HEADERS.includes(name));
    Object.assign(headers, {
      'Access-Control-Allow-Methods': [...allow, 'OPTIONS'].join(', '),
      'Access-Control-Allow-Headers': (requested.length > 0 ? requested : CORS_ALLOWED_HEADERS).join(', '),
      'Access-Control-Max-Age': '600',
    });
  }
  return reply.empty(204, { headers });
}
