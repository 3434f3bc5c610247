/** The rows of functions/shell/: what the editor's shell reads and does for a signed-in user. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { AUTH_READS, defineRow } from '#shared/routes/row.ts';
import { OrganizationParams } from '#shared/schemas/identity.ts';

/** The authenticator's reads, plus Query for the lists (table and gsi1). */
const SHELL_READS = [...AUTH_READS, 'Query'] as const;

/** What every shell operation shares; one vCPU, as the workspace routes (routes/row.ts). */
const SHELL = {
  auth: 'session',
  memory: 1769,
  timeout: 10,
  access: { tables: { workspace: SHELL_READS } },
  listed: true,
  tag: 'Shell',
  errors: [401, 403, 503],
} as const;

export const getMe = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getMe,
  ...SHELL,
  handler: 'functions/shell/get-me.ts',
}));

export const getBootstrap = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getBootstrap,
  ...SHELL,
  handler: 'functions/shell/get-bootstrap.ts',
  permission: 'organization:read',
}));

export const listOrganizations = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.listOrganizations,
  ...SHELL,
  handler: 'functions/shell/list-organizations.ts',
}));

export const getOrganization = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getOrganization,
  ...SHELL,
  handler: 'functions/shell/get-organization.ts',
  permission: 'organization:read',
  params: OrganizationParams,
}));

export const listOrganizationMembers = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.listOrganizationMembers,
  ...SHELL,
  handler: 'functions/shell/list-organization-members.ts',
  permission: 'member:read',
  params: OrganizationParams,
}));

export const listOrganizationInvitations = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.listOrganizationInvitations,
  ...SHELL,
  handler: 'functions/shell/list-organization-invitations.ts',
  permission: 'invitation:read',
  params: OrganizationParams,
}));

export const getOrganizationSettings = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getOrganizationSettings,
  ...SHELL,
  handler: 'functions/shell/get-organization-settings.ts',
  permission: 'settings:read',
  params: OrganizationParams,
}));

export const getOrganizationPermissions = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getOrganizationPermissions,
  ...SHELL,
  handler: 'functions/shell/get-organization-permissions.ts',
  permission: 'organization:read',
  params: OrganizationParams,
}));

export const getOrganizationCapabilities = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getOrganizationCapabilities,
  ...SHELL,
  handler: 'functions/shell/get-organization-capabilities.ts',
  permission: 'organization:read',
  params: OrganizationParams,
}));

export const activateOrganization = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.activateOrganization,
  ...SHELL,
  handler: 'functions/shell/activate-organization.ts',
  access: { tables: { workspace: [...SHELL_READS, 'UpdateItem'] } },
  params: OrganizationParams,
}));
