/** The row of functions/source-apps/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { AUTH_READS, defineRow, JSON_BODY, WORKSPACE } from '#shared/routes/row.ts';
import { SourceAppCreate } from '#shared/schemas/source-apps.ts';

export const createSourceApp = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.createSourceApp,
  ...WORKSPACE,
  handler: 'functions/source-apps/create-source-app.ts',
  permission: 'source:write',
  access: { tables: { workspace: [...AUTH_READS, 'PutItem'] }, apiKeyStamp: true },
  tag: 'Source apps',
  body: { ...JSON_BODY, schema: SourceAppCreate },
  status: 201,
  errors: [400, 401, 403, 413, 503],
}));
