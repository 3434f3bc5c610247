/**
 * The one place each operation's method, path and CORS policy is written. Apart from the rows so the
 * fallback (404, 405, preflight) matches against all of them without bundling any schema.
 */

// Anonymous utilities (and the maintainers' purge).
export const postExport = { operationId: 'postExport', method: 'POST', path: '/api/export', cors: 'public' } as const;
export const getTweet = { operationId: 'getTweet', method: 'GET', path: '/api/tweet/{id}', cors: 'public' } as const;
export const getImageProxy = { operationId: 'getImageProxy', method: 'GET', path: '/api/image-proxy', cors: 'public' } as const;
export const capturePage = { operationId: 'capturePage', method: 'POST', path: '/api/screenshot', cors: 'public' } as const;
export const purgeCache = { operationId: 'purgeCache', method: 'POST', path: '/internal/cache/purge', cors: 'public' } as const;

// Workspace operations: an API key, or a session; editor origins with credentials.
export const listReleases = { operationId: 'listReleases', method: 'GET', path: '/api/v1/releases', cors: 'editor' } as const;
export const createRelease = { operationId: 'createRelease', method: 'POST', path: '/api/v1/releases', cors: 'editor' } as const;
export const runReleaseShots = { operationId: 'runReleaseShots', method: 'POST', path: '/api/v1/releases/{releaseId}/shots', cors: 'editor' } as const;
export const listReleaseShots = { operationId: 'listReleaseShots', method: 'GET', path: '/api/v1/releases/{releaseId}/shots', cors: 'editor' } as const;
export const createSourceApp = { operationId: 'createSourceApp', method: 'POST', path: '/api/v1/source-apps', cors: 'editor' } as const;
// A source app's webhook: signed by the app, never sent by a browser.
export const takeInRelease = { operationId: 'takeInRelease', method: 'POST', path: '/api/v1/source-apps/{sourceAppId}/intake', cors: 'public' } as const;
export const createAssetUpload = { operationId: 'createAssetUpload', method: 'POST', path: '/api/v1/assets/upload-url', cors: 'editor' } as const;
export const completeAssetUpload = { operationId: 'completeAssetUpload', method: 'POST', path: '/api/v1/assets/{assetId}/complete', cors: 'editor' } as const;
export const getAssetDownloadUrl = {
  operationId: 'getAssetDownloadUrl',
  method: 'GET',
  path: '/api/v1/assets/{assetId}/download-url',
  cors: 'editor',
} as const;
export const deleteAsset = { operationId: 'deleteAsset', method: 'DELETE', path: '/api/v1/assets/{assetId}', cors: 'editor' } as const;
export const listAssets = { operationId: 'listAssets', method: 'GET', path: '/api/v1/assets', cors: 'editor' } as const;

// The shell: a session only; editor origins with credentials.
export const getMe = { operationId: 'getMe', method: 'GET', path: '/api/v1/me', cors: 'editor' } as const;
export const getBootstrap = { operationId: 'getBootstrap', method: 'GET', path: '/api/v1/bootstrap', cors: 'editor' } as const;
export const listOrganizations = { operationId: 'listOrganizations', method: 'GET', path: '/api/v1/organizations', cors: 'editor' } as const;
export const getOrganization = { operationId: 'getOrganization', method: 'GET', path: '/api/v1/organizations/{organizationId}', cors: 'editor' } as const;
export const listOrganizationMembers = {
  operationId: 'listOrganizationMembers',
  method: 'GET',
  path: '/api/v1/organizations/{organizationId}/members',
  cors: 'editor',
} as const;
export const listOrganizationInvitations = {
  operationId: 'listOrganizationInvitations',
  method: 'GET',
  path: '/api/v1/organizations/{organizationId}/invitations',
  cors: 'editor',
} as const;
export const getOrganizationSettings = {
  operationId: 'getOrganizationSettings',
  method: 'GET',
  path: '/api/v1/organizations/{organizationId}/settings',
  cors: 'editor',
} as const;
export const getOrganizationPermissions = {
  operationId: 'getOrganizationPermissions',
  method: 'GET',
  path: '/api/v1/organizations/{organizationId}/permissions',
  cors: 'editor',
} as const;
export const getOrganizationCapabilities = {
  operationId: 'getOrganizationCapabilities',
  method: 'GET',
  path: '/api/v1/organizations/{organizationId}/capabilities',
  cors: 'editor',
} as const;
export const activateOrganization = {
  operationId: 'activateOrganization',
  method: 'POST',
  path: '/api/v1/organizations/{organizationId}/activate',
  cors: 'editor',
} as const;

// Sign-in: e-mail codes, passkeys, sessions and invitations; editor origins with credentials.
export const sendEmailCode = { operationId: 'sendEmailCode', method: 'POST', path: '/api/v1/auth/email-code', cors: 'editor' } as const;
export const verifyEmailCode = { operationId: 'verifyEmailCode', method: 'POST', path: '/api/v1/auth/email-code/verify', cors: 'editor' } as const;
export const passkeySignInOptions = { operationId: 'passkeySignInOptions', method: 'POST', path: '/api/v1/auth/passkey/options', cors: 'editor' } as const;
export const signInWithPasskey = { operationId: 'signInWithPasskey', method: 'POST', path: '/api/v1/auth/passkey/verify', cors: 'editor' } as const;
export const getSession = { operationId: 'getSession', method: 'GET', path: '/api/v1/auth/session', cors: 'editor' } as const;
export const signOut = { operationId: 'signOut', method: 'POST', path: '/api/v1/auth/sign-out', cors: 'editor' } as const;
export const listSessions = { operationId: 'listSessions', method: 'GET', path: '/api/v1/auth/sessions', cors: 'editor' } as const;
export const endOtherSessions = { operationId: 'endOtherSessions', method: 'DELETE', path: '/api/v1/auth/sessions', cors: 'editor' } as const;
export const endSession = { operationId: 'endSession', method: 'DELETE', path: '/api/v1/auth/sessions/{sessionId}', cors: 'editor' } as const;
export const passkeyRegistrationOptions = {
  operationId: 'passkeyRegistrationOptions',
  method: 'POST',
  path: '/api/v1/auth/passkeys/options',
  cors: 'editor',
} as const;
export const registerPasskey = { operationId: 'registerPasskey', method: 'POST', path: '/api/v1/auth/passkeys', cors: 'editor' } as const;
export const listPasskeys = { operationId: 'listPasskeys', method: 'GET', path: '/api/v1/auth/passkeys', cors: 'editor' } as const;
export const deletePasskey = { operationId: 'deletePasskey', method: 'DELETE', path: '/api/v1/auth/passkeys/{passkeyId}', cors: 'editor' } as const;
export const listMyInvitations = { operationId: 'listMyInvitations', method: 'GET', path: '/api/v1/auth/invitations', cors: 'editor' } as const;
export const acceptInvitation = {
  operationId: 'acceptInvitation',
  method: 'POST',
  path: '/api/v1/auth/invitations/{invitationId}/accept',
  cors: 'editor',
} as const;

// The site and the discovery documents.
export const getHome = { operationId: 'getHome', method: 'GET', path: '/', cors: 'public' } as const;
export const getEditorAsset = { operationId: 'getEditorAsset', method: 'GET', path: '/editor/{file}', cors: 'public' } as const;
export const getDocs = { operationId: 'getDocs', method: 'GET', path: '/docs', cors: 'public' } as const;
export const getErrorDocs = { operationId: 'getErrorDocs', method: 'GET', path: '/docs/errors', cors: 'public' } as const;
export const getOpenApi = { operationId: 'getOpenApi', method: 'GET', path: '/openapi.json', cors: 'public' } as const;
export const getLlms = { operationId: 'getLlms', method: 'GET', path: '/llms.txt', cors: 'public' } as const;
export const getLlmsFull = { operationId: 'getLlmsFull', method: 'GET', path: '/llms-full.txt', cors: 'public' } as const;
