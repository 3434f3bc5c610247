/**
 * Route and handler point one way: each row names its handler module, and that module's handler
 * must be the one route() built for this row, so a handler can never serve another row's schemas,
 * auth or status.
 */
import { describe, expect, it } from 'vitest';
import { routeOf } from '#shared/http/route.ts';
import { ROUTE_LIST } from '#shared/routes.ts';
import { shellRoute, workspaceRoute } from '#shared/wiring/auth.ts';

describe('route table and handler modules', () => {
  it.each(ROUTE_LIST.map((row) => [row.handler, row.operationId] as const))('builds the handler of %s for the row %s', async (entry, operationId) => {
    // Act
    const module = (await import(`../../${entry}`)) as { handler?: unknown };

    // Assess
    expect(routeOf(module.handler)).toBe(operationId);
  });
});

// A factory that does not match its row does not compile (npm test type-checks before it runs).
// @ts-expect-error getMe is a shell row, not a workspace row
export const wrongWorkspace = () => workspaceRoute('getMe', async () => ({}));
// @ts-expect-error listReleases is a workspace row, not a shell row
export const wrongShell = () => shellRoute('listReleases', async () => ({}));
