/**
 * Route and handler point one way: each row names its handler module, and that module's handler
 * must be the one route() built for this row, so a handler can never serve another row's schemas,
 * auth or status.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { route, routeOf } from '#shared/http/route.ts';
import { QUEUES } from '#shared/resources.ts';
import { FALLBACK, ROUTE_LIST } from '#shared/routes.ts';
import * as exports from '#shared/routes/export.ts';
import * as internal from '#shared/routes/internal.ts';
import * as releases from '#shared/routes/releases.ts';
import * as screenshot from '#shared/routes/screenshot.ts';
import * as shell from '#shared/routes/shell.ts';
import { authenticate } from '#shared/wiring/auth.ts';

describe('route table and handler modules', () => {
  it.each(ROUTE_LIST.map((row) => [row.handler, row.operationId] as const))('builds the handler of %s for the row %s', async (entry, operationId) => {
    // Act
    const module = (await import(join(PROJECT_ROOT, entry))) as { handler?: unknown };

    // Assess
    expect(routeOf(module.handler)).toBe(operationId);
  });

  it('deploys every module of functions/: each is the handler of a row, of the fallback or of a queue worker', () => {
    // Prepare
    const named = new Set([...ROUTE_LIST.map((row) => row.handler), FALLBACK.handler, ...Object.values(QUEUES).map((queue) => queue.worker.handler)]);

    // Act
    const modules = readdirSync(join(PROJECT_ROOT, 'functions'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(PROJECT_ROOT, join(entry.parentPath, entry.name)));

    // Assess
    expect(modules.filter((module) => !named.has(module))).toEqual([]);
  });
});

// A handler that does not pass the middlewares its row's features need does not compile (npm test
// type-checks before it runs).
// @ts-expect-error getMe is a session row: its handler passes authenticate
export const withoutSession = () => route(shell.getMe, async () => ({}));
// @ts-expect-error listReleases is an apiKey row: authenticate, not the internal secret
export const wrongAuth = () => route(releases.listReleases, async () => ({}), { internalAuth: authenticate });
// @ts-expect-error purgeCache is an internal row: its handler passes internalAuth
export const withoutSecret = () => route(internal.purgeCache, async () => ({}));
// @ts-expect-error capturePage publishes x-easel-rate-limit: its handler passes rateLimit
export const withoutLimit = () => route(screenshot.capturePage, async () => ({}));
// @ts-expect-error postExport takes multipart/form-data: its handler passes multipartBody
export const withoutForm = () => route(exports.postExport, async () => ({}));
