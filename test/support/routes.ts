import type { RouteDef } from '#shared/route-types.ts';

/**
 * A synthetic row of the route table for exercising the middleware stack: an anonymous, public,
 * unlisted GET that names only what a test overrides.
 */
export function testRoute(overrides: Partial<RouteDef> = {}): RouteDef {
  return {
    operationId: 'test',
    method: 'GET',
    path: '/api/test',
    handler: 'unused.ts',
    auth: 'none',
    cors: 'public',
    memory: 256,
    timeout: 5,
    access: {},
    listed: false,
    tag: 'Test',
    summary: 'test route',
    description: 'test route',
    responses: { 200: { description: 'ok' } },
    errors: [],
    ...overrides,
  };
}
