/** What the editor shell may offer a member: rendering hints only, as every operation re-checks. */
import type { Permission } from '#shared/identity/permissions.ts';
import type { Feature } from '#shared/identity/plans.ts';

/** Each flag is true when the member holds the permission and the plan includes the feature (when named). */
export const CAPABILITIES = {
  canReadReleases: { permission: 'artifact:read' },
  canCreateReleases: { permission: 'release:create' },
  canScheduleReleases: { permission: 'release:create', feature: 'release:scheduling' },
  canUploadAssets: { permission: 'upload:sign' },
  canManageAssets: { permission: 'asset:write' },
  canDeleteAssets: { permission: 'asset:write', feature: 'asset:delete' },
  canManageSourceApps: { permission: 'source:write' },
  canViewMembers: { permission: 'member:read' },
  canManageMembers: { permission: 'member:write' },
  canViewInvitations: { permission: 'invitation:read' },
  canInviteMembers: { permission: 'invitation:write' },
  canManageApiKeys: { permission: 'apikey:write' },
  canEditSettings: { permission: 'settings:write' },
  canManageBilling: { permission: 'billing:manage' },
  canDeleteOrganization: { permission: 'organization:delete' },
  canUseSso: { feature: 'sso:saml' },
} as const satisfies Record<string, { permission?: Permission; feature?: Feature }>;

export type Capability = keyof typeof CAPABILITIES;
export const CAPABILITY_LIST = Object.keys(CAPABILITIES) as Capability[];
export type CapabilityFlags = Record<Capability, boolean>;

export function capabilitiesOf(permissions: readonly Permission[], features: readonly Feature[]): CapabilityFlags {
  const flags = {} as CapabilityFlags;
  for (const name of CAPABILITY_LIST) {
    const rule: { permission?: Permission; feature?: Feature } = CAPABILITIES[name];
    flags[name] = (rule.permission === undefined || permissions.includes(rule.permission)) && (rule.feature === undefined || features.includes(rule.feature));
  }
  return flags;
}
