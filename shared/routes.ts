/** The route table; a function imports its own row from shared/routes/<resource>.ts, so its bundle has no other row's (docs/architecture.md). */
import type { RouteRow } from '#shared/route-types.ts';
import type * as Endpoints from '#shared/routes/endpoints.ts';
import { postExport } from '#shared/routes/export.ts';
import { getTweet } from '#shared/routes/tweets.ts';
import { getImageProxy } from '#shared/routes/media.ts';
import { capturePage } from '#shared/routes/screenshot.ts';
import { purgeCache } from '#shared/routes/internal.ts';
import { createRelease, listReleaseShots, listReleases, runReleaseShots } from '#shared/routes/releases.ts';
import { createSourceApp, takeInRelease } from '#shared/routes/source-apps.ts';
import { completeAssetUpload, createAssetUpload, deleteAsset, getAssetDownloadUrl, listAssets } from '#shared/routes/assets.ts';
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
import {
  acceptInvitation,
  deletePasskey,
  endOtherSessions,
  endSession,
  getSession,
  listMyInvitations,
  listPasskeys,
  listSessions,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  registerPasskey,
  sendEmailCode,
  signInWithPasskey,
  signOut,
  verifyEmailCode,
} from '#shared/routes/sign-in.ts';
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
  runReleaseShots,
  listReleaseShots,
  createSourceApp,
  takeInRelease,
  createAssetUpload,
  completeAssetUpload,
  getAssetDownloadUrl,
  deleteAsset,
  listAssets,
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
  sendEmailCode,
  verifyEmailCode,
  passkeySignInOptions,
  signInWithPasskey,
  getSession,
  signOut,
  listSessions,
  endOtherSessions,
  endSession,
  passkeyRegistrationOptions,
  registerPasskey,
  listPasskeys,
  deletePasskey,
  listMyInvitations,
  acceptInvitation,
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

export const ROUTE_LIST: readonly (RouteRow & { operationId: OperationId })[] = Object.values(ROUTES);

/** The function that answers everything the table does not: 404, 405 with Allow, CORS preflight. */
export const FALLBACK = {
  handler: 'functions/fallback/handle-unmatched.ts',
  memory: 256,
  timeout: 5,
} as const;
