/** The rows of functions/releases/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { AUTH_READS, defineRow, JSON_BODY, WORKSPACE } from '#shared/routes/row.ts';
import { IdempotencyHeaders, ReleaseCreate, ReleaseListQuery } from '#shared/schemas/releases.ts';

export const listReleases = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.listReleases,
  ...WORKSPACE,
  handler: 'functions/releases/list-releases.ts',
  permission: 'artifact:read',
  access: { tables: { workspace: [...AUTH_READS, 'Query'] }, apiKeyStamp: true },
  tag: 'Releases',
  query: ReleaseListQuery,
  errors: [400, 401, 403, 503],
}));

export const createRelease = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.createRelease,
  ...WORKSPACE,
  handler: 'functions/releases/create-release.ts',
  permission: 'release:create',
  // The Idempotency-Key claim and the release: conditional puts, read back on a repeat.
  access: { tables: { workspace: [...AUTH_READS, 'PutItem'] }, apiKeyStamp: true },
  tag: 'Releases',
  headers: IdempotencyHeaders,
  body: { ...JSON_BODY, schema: ReleaseCreate },
  errors: [400, 401, 403, 413, 503],
}));
