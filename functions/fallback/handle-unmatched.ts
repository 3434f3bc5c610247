import { MethodNotAllowedError, NotFoundError } from '#shared/errors.ts';
import { createHttpHandler } from '#shared/http/handler.ts';
import { preflight } from '#shared/http/preflight.ts';
import { routeMatcher } from '#shared/http/match.ts';
import * as endpoints from '#shared/routes/endpoints.ts';

// Endpoints, not rows: the fallback needs no schemas.
const matchRoute = routeMatcher(Object.values(endpoints));

/** API Gateway's $default route: CORS preflight for known paths, 405 with Allow for a known path and another method, else 404. */
export const handler = createHttpHandler(
  {
    operationId: 'fallback',
    routeKey: '$default',
    cors: (event) => {
      const match = matchRoute(event.requestContext.http.method, event.rawPath);
      return match.kind === 'method' ? match.cors : 'public';
    },
  },
  [],
  async (event) => {
    const method = event.requestContext.http.method.toUpperCase();
    const match = matchRoute(method, event.rawPath);
    if (match.kind === 'method' && method === 'OPTIONS') return preflight(event, match.allow, match.cors);
    if (match.kind === 'method') throw new MethodNotAllowedError(method, match.allow);
    throw new NotFoundError(`No route for ${method} ${event.rawPath}`, 'Check the path; /openapi.json lists every route.');
  },
);
