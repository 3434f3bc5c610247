/** The rows of functions/source-apps/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { AUTH_READS, defineRow, JSON_BODY, WORKSPACE } from '#shared/routes/row.ts';
import { IntakeBody, IntakeHeaders, IntakeParams, MAX_INTAKE_BYTES } from '#shared/schemas/intake.ts';
import { SourceAppCreate } from '#shared/schemas/source-apps.ts';
import { IdempotencyKeyHeaders } from '#shared/schemas/common.ts';

export const createSourceApp = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.createSourceApp,
  ...WORKSPACE,
  handler: 'functions/source-apps/create-source-app.ts',
  permission: 'source:write',
  // The source app, and the Idempotency-Key record: claimed, completed, or freed on failure.
  access: { tables: { workspace: [...AUTH_READS, 'PutItem', 'UpdateItem', 'DeleteItem'] }, apiKeyStamp: true },
  tag: 'Source apps',
  idempotent: true,
  headers: IdempotencyKeyHeaders,
  body: { ...JSON_BODY, schema: SourceAppCreate },
  status: 201,
  errors: [400, 401, 403, 413, 503],
}));

export const takeInRelease = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.takeInRelease,
  handler: 'functions/source-apps/take-in-release.ts',
  // Signed by the app with its secret: no key or cookie counts (shared/http/webhook-auth.ts).
  auth: 'webhook',
  // As a workspace operation: one vCPU.
  memory: 1769,
  timeout: 10,
  // The app's address and record, its organization (GetItem); the delivery's record (PutItem,
  // UpdateItem, DeleteItem), the claim and the draft (PutItem, UpdateItem); a new draft's shots
  // (BatchWriteItem, UpdateItem), the per-app limit and the shots quota (rate), the messages.
  access: {
    tables: { workspace: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'], rate: ['UpdateItem'] },
    queues: { shots: 'send' },
    sourceSecrets: true,
  },
  listed: true,
  tag: 'Source apps',
  idempotent: true,
  params: IntakeParams,
  headers: IntakeHeaders,
  body: { contentType: 'application/json', schema: IntakeBody, maxBytes: MAX_INTAKE_BYTES },
  status: 202,
  errors: [400, 401, 403, 404, 413, 429, 503],
  extensions: { 'x-easel-rate-limit': { limit: 60, windowSeconds: 60, per: 'sourceAppId' } },
}));
