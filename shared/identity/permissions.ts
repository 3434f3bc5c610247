/** The one vocabulary of permissions, of roles and key scopes; /docs#roles-and-permissions is generated from it. */
import * as v from 'valibot';

/** In the order the docs list them. */
export const PERMISSIONS = {
  'artifact:read': 'Read releases and download assets of the workspace.',
  'release:create': 'Create releases.',
  'release:capture': "Run a release's shots: capture its pages into the workspace, behind its source apps' logins (counts against the shots:month quota).",
  'source:write': 'Register release-intake source apps.',
  'upload:sign': 'Create signed upload URLs for new assets.',
  'asset:write': 'Complete uploads and delete assets.',
  'organization:read': 'Read the active organization, its settings, capabilities and the bootstrap view.',
  'settings:read': 'Read the workspace settings (locale, time zone, default publishing time, description).',
  'member:read': 'List the members of the organization and their roles.',
  'invitation:read': 'List the invitations of the organization.',
  'member:write': 'Add and remove members and change their roles.',
  'invitation:write': 'Invite people and revoke invitations.',
  'apikey:write': 'Issue and revoke organization API keys.',
  'settings:write': 'Change the workspace settings.',
  'billing:manage': 'Change the plan of the organization.',
  'organization:delete': 'Delete the organization.',
} as const;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_LIST = Object.keys(PERMISSIONS) as Permission[];
export const PermissionSchema = v.picklist(PERMISSION_LIST);

/** Keys act for an organization, never a person, so member, billing and deletion rights stay with sessions. */
export const API_KEY_SCOPES = [
  'artifact:read',
  'release:create',
  'release:capture',
  'source:write',
  'upload:sign',
  'asset:write',
] as const satisfies readonly Permission[];
export type Scope = (typeof API_KEY_SCOPES)[number];
export const ScopeSchema = v.picklist(API_KEY_SCOPES);

/** From most to least privileged. */
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = v.picklist(ROLES);

const MEMBER: readonly Permission[] = [
  'artifact:read',
  'release:create',
  'release:capture',
  'upload:sign',
  'asset:write',
  'organization:read',
  'settings:read',
];
const ADMIN: readonly Permission[] = [
  ...MEMBER,
  'source:write',
  'member:read',
  'invitation:read',
  'member:write',
  'invitation:write',
  'apikey:write',
  'settings:write',
];
// Only an owner can change what the organization pays for or delete it.
const OWNER: readonly Permission[] = [...ADMIN, 'billing:manage', 'organization:delete'];

/** Members see their own membership, not the roster. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: ordered(OWNER),
  admin: ordered(ADMIN),
  member: ordered(MEMBER),
};

export const ROLE_DESCRIPTIONS: Readonly<Record<Role, string>> = {
  owner: 'Everything, including the plan and deleting the organization.',
  admin: 'Runs the organization: members, invitations, API keys, settings and source apps.',
  member: 'Works in the workspace: reads and creates releases, runs their shots, uploads and manages assets.',
};

function ordered(permissions: readonly Permission[]): readonly Permission[] {
  const set = new Set(permissions);
  return PERMISSION_LIST.filter((permission) => set.has(permission));
}

export function permissionsOf(role: Role): readonly Permission[] {
  return ROLE_PERMISSIONS[role];
}

export function grants(held: readonly string[], permission: string): boolean {
  return held.includes(permission);
}
