/** How a route-table row is written, and the parts rows of several resources share. */
import type { RouteRow, TableAction } from '#shared/route-types.ts';
import { BUCKETS } from '#shared/resources.ts';

/**
 * Every row is `defineRow(() => ({ ...endpoint.x, … }))`, the call annotated `@__PURE__`, for esbuild:
 * it keeps any statement that spreads an object (a spread may run a getter), so a plain-object row
 * would put its schemas into every bundle importing its module; an unused pure call is dropped. The
 * annotation stays at each call, as esbuild honours `@__NO_SIDE_EFFECTS__` only within its own file.
 */
export function defineRow<R extends RouteRow>(build: () => R): R {
  return build();
}

/** The credential (GetItem), then the organization and membership (one BatchGetItem). */
export const AUTH_READS = ['GetItem', 'BatchGetItem'] as const satisfies readonly TableAction[];

/**
 * What every workspace operation shares. Each row's `access` names `apiKeyStamp`, a grant limited to
 * API-key items, not UpdateItem on the table. One vCPU: docs/performance.md, "Cost per million calls".
 */
export const WORKSPACE = {
  auth: 'apiKey',
  memory: 1769,
  timeout: 10,
  listed: true,
} as const;

/** What the site's pages and the discovery documents share. */
export const DISCOVERY = {
  auth: 'none',
  memory: 256,
  timeout: 5,
  access: {},
  listed: true,
  tag: 'Discovery',
  errors: [],
} as const;

export const JSON_BODY = { contentType: 'application/json', maxBytes: 64 * 1024 } as const;

export const CAPTURES = [BUCKETS.cache.prefixes.captures];
