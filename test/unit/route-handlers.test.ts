/**
 * Route and handler point one way: each row names its handler module, and that module's handler
 * must be the one route() built for this row, so a handler can never serve another row's schemas,
 * auth or status.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { routeOf } from '#shared/http/route.ts';
import { QUEUES } from '#shared/resources.ts';
import { FALLBACK, ROUTE_LIST } from '#shared/routes.ts';
import * as releases from '#shared/routes/releases.ts';
import * as shell from '#shared/routes/shell.ts';
import { shellRoute, workspaceRoute } from '#shared/wiring/auth.ts';

describe('route table and handler modules', () => {
  it.each(ROUTE_LIST.map((row) => [row.handler, row.operationId] as const))('builds the handler of %s for the row %s', async (entry, operationId) => {
    // Act
    const module = (await import(`../../${entry}`)) as { handler?: unknown };

    // Assess
    expect(routeOf(module.handler)).toBe(operationId);
  });

  it('deploys every module of functions/: each is the handler of a row, of the fallback or of a queue worker', () => {
    // Arrange
    const named = new Set([...ROUTE_LIST.map((row) => row.handler), FALLBACK.handler, ...Object.values(QUEUES).map((queue) => queue.worker.handler)]);

    // Act
    const modules = readdirSync(join(PROJECT_ROOT, 'functions'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(PROJECT_ROOT, join(entry.parentPath, entry.name)));

    // Assess
    expect(modules.filter((module) => !named.has(module))).toEqual([]);
  });
});

// A factory that does not match its row does not compile (npm test type-checks before it runs).
// @ts-expect-error getMe is a shell row, not a workspace row
export const wrongWorkspace = () => workspaceRoute(shell.getMe, async () => ({}));
// @ts-expect-error listReleases is a workspace row, not a shell row
export const wrongShell = () => shellRoute(releases.listReleases, async () => ({}));
