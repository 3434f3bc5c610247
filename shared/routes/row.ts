/**
 * How a row of the route table is written (shared/routes/<resource>.ts), and the parts that rows
 * of several resources share.
 */
import type { RouteRow, TableAction } from '#shared/route-types.ts';
import { BUCKETS } from '#shared/resources.ts';

/**
 * One row of the route table: what `build` returns, checked against RouteRow with its literal
 * types kept (handlers get typed input from the row's schemas). Every row is written the same
 * way, the call annotated `@__PURE__` (see shared/routes/tweets.ts):
 * `export const getTweet = defineRow(() => ({ ...endpoint.getTweet, … }));`.
 *
 * The function and its annotation are there for esbuild. A row spreads its endpoint, and esbuild
 * keeps every statement that spreads an object, used or not (a spread may run a getter): written
 * as a plain object, each row of a module, with its schemas, would ride along in the bundle of
 * every function that imports one of them. A call annotated as pure, whose arguments do nothing
 * (the spread is inside the function, not an argument), is dropped when its result is unused.
 * esbuild honours an annotation on the declaration (`@__NO_SIDE_EFFECTS__`) only within its own
 * file, so it stays at each call. test/infra/bundle-weight.test.ts fails when a function carries
 * another row.
 */
export function defineRow<R extends RouteRow>(build: () => R): R {
  return build();
}

/**
 * What every authenticated route reads from the workspace table: the credential (GetItem), then
 * the organization and the membership (one BatchGetItem).
 */
export const AUTH_READS = ['GetItem', 'BatchGetItem'] as const satisfies readonly TableAction[];

/**
 * What every workspace operation shares: an API key with the row's scope (or a session whose
 * role grants it), editor origins with credentials (its endpoint's CORS policy). Each row's
 * `access` names `apiKeyStamp`: the key's throttled last-used stamp is the one write a reading
 * route makes, and it gets its own grant limited to API-key items, not UpdateItem on the whole
 * table. Memory: one vCPU, by measurement (`npm run bench -- cost`: the CPU it can use; its
 * waiting is a small part of its bill).
 */
export const WORKSPACE = {
  auth: 'apiKey',
  memory: 1769,
  timeout: 10,
  listed: true,
} as const;

/**
 * What the site's pages and the discovery documents share: anonymous, small and quick, no AWS
 * access, listed under Discovery, and no error of their own to document.
 */
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

/** The capture cache's key prefix: the capture reads and writes it, the purge deletes from it. */
export const CAPTURES = [BUCKETS.cache.prefixes.captures];
