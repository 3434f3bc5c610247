/** The row of functions/source-apps/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { AUTH_READS, defineRow, JSON_BODY, WORKSPACE } from '#shared/routes/row.ts';
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
