/** The rows of functions/releases/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { AUTH_READS, defineRow, JSON_BODY, WORKSPACE } from '#shared/routes/row.ts';
import { IdempotencyKeyHeaders } from '#shared/schemas/common.ts';
import { IdempotencyHeaders, ReleaseCreate, ReleaseListQuery, ReleaseParams } from '#shared/schemas/releases.ts';
import { ShotRunRequest } from '#shared/schemas/shots.ts';

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

export const runReleaseShots = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.runReleaseShots,
  ...WORKSPACE,
  handler: 'functions/releases/run-shots.ts',
  permission: 'release:capture',
  // The release, the shots (a batch write; UpdateItem fails those the queue refused), the quota
  // counter, the messages; PutItem, UpdateItem and DeleteItem are also the Idempotency-Key record's.
  access: {
    tables: { workspace: [...AUTH_READS, 'BatchWriteItem', 'PutItem', 'UpdateItem', 'DeleteItem'], rate: ['UpdateItem'] },
    queues: { shots: 'send' },
    apiKeyStamp: true,
  },
  tag: 'Releases',
  idempotent: true,
  params: ReleaseParams,
  headers: IdempotencyKeyHeaders,
  // A hundred shots with long style sheets.
  body: { contentType: 'application/json', schema: ShotRunRequest, optional: true, maxBytes: 1024 * 1024 },
  status: 202,
  errors: [400, 401, 403, 404, 413, 429, 503],
}));

export const listReleaseShots = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.listReleaseShots,
  ...WORKSPACE,
  handler: 'functions/releases/list-shots.ts',
  permission: 'artifact:read',
  access: { tables: { workspace: [...AUTH_READS, 'Query'] }, apiKeyStamp: true },
  tag: 'Releases',
  params: ReleaseParams,
  errors: [400, 401, 403, 404, 503],
}));
