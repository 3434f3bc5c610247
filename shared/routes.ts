/**
 * The route table: the one list of operations. Each operation is written once: where it is
 * served (method, path, CORS policy) in shared/routes/endpoints.ts, and its row — what runs:
 * auth, limits, grants, the schemas its input is validated with — in
 * shared/routes/<resource>.ts, beside the handlers of functions/<resource>/. What the documents
 * say about it (summary, description, responses) is in shared/docs/operations.ts under the same
 * operation id.
 *
 * This module holds every row: the CDK stack, the local server, the documents and the tests read
 * it. A function imports its own row from its resource's module instead, so its bundle carries
 * that row and its schemas and no other (test/infra/bundle-weight.test.ts); the fallback reads
 * the endpoints alone.
 *
 * Adding a route: its endpoint, a row in its resource's module (schemas in shared/schemas/), the
 * row here, its documentation, and a handler that hands its row to its factory. The compiler
 * holds them together: a row here for every endpoint and no other, each row on its own endpoint,
 * documentation for every row, a factory only for the rows of its kind.
 */
import type { RouteRow } from '#shared/route-types.ts';
import type * as Endpoints from '#shared/routes/endpoints.ts';
import { postExport } from '#shared/routes/export.ts';
import { getTweet } from '#shared/routes/tweets.ts';
import { getImageProxy } from '#shared/routes/media.ts';
import { capturePage } from '#shared/routes/screenshot.ts';
import { purgeCache } from '#shared/routes/internal.ts';
import { createRelease, listReleases } from '#shared/routes/releases.ts';
import { createSourceApp } from '#shared/routes/source-apps.ts';
import { completeAssetUpload, createAssetUpload, deleteAsset, getAssetDownloadUrl } from '#shared/routes/assets.ts';
import {
  activateOrganization,
  getBootstrap,
  getMe,
  getOrganization,
  getOrganizationCapabilities,
  getOrganizationPermissions,
  getOrganizationSettings,
  listOrganizationInvitations,
  listOrganizationMembers,
  listOrganizations,
} from '#shared/routes/shell.ts';
import { getDocs, getEditorAsset, getErrorDocs, getHome } from '#shared/routes/site.ts';
import { getLlms, getLlmsFull, getOpenApi } from '#shared/routes/discovery.ts';

/** Every row by operation id, in the order the documents list them. */
export const ROUTES = {
  postExport,
  getTweet,
  getImageProxy,
  capturePage,
  purgeCache,
  listReleases,
  createRelease,
  createSourceApp,
  createAssetUpload,
  completeAssetUpload,
  getAssetDownloadUrl,
  deleteAsset,
  getMe,
  getBootstrap,
  listOrganizations,
  getOrganization,
  listOrganizationMembers,
  listOrganizationInvitations,
  getOrganizationSettings,
  getOrganizationPermissions,
  getOrganizationCapabilities,
  activateOrganization,
  getHome,
  getEditorAsset,
  getDocs,
  getErrorDocs,
  getOpenApi,
  getLlms,
  getLlmsFull,
} satisfies { [K in keyof typeof Endpoints]: RouteRow & (typeof Endpoints)[K] };

export type Routes = typeof ROUTES;
export type OperationId = keyof Routes;

/** The rows, in table order. */
export const ROUTE_LIST: readonly (RouteRow & { operationId: OperationId })[] = Object.values(ROUTES);

/** The function that answers everything the table does not: 404, 405 with Allow, CORS preflight. */
export const FALLBACK = {
  handler: 'functions/fallback/handle-unmatched.ts',
  memory: 256,
  timeout: 5,
} as const;
