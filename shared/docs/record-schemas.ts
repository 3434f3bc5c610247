/**
 * The records the API answers with, under the names /openapi.json gives them in
 * `components.schemas`, so a generated client has a type for each (and for each record inside another).
 */
import type { AnySchema } from '#shared/route-types.ts';
import { Asset, AssetDeletionAccepted, AssetDownload, AssetUploadInstructions } from '#shared/schemas/assets.ts';
import {
  BootstrapResponse,
  CapabilitiesResponse,
  CapabilityFlags,
  Counters,
  EntitlementView,
  InvitationsResponse,
  MembersResponse,
  MembershipView,
  OrganizationListItem,
  OrganizationView,
  OrganizationsResponse,
  PermissionsResponse,
  UserView,
  WorkspaceSettings,
  WorkspaceView,
} from '#shared/schemas/identity.ts';
import { Release, ReleaseList } from '#shared/schemas/releases.ts';
import { ReleaseShots, ShotRun, ShotView } from '#shared/schemas/shots.ts';
import { ScreenshotResponse } from '#shared/schemas/screenshot.ts';
import { SourceApp } from '#shared/schemas/source-apps.ts';

export const RECORD_SCHEMAS: Record<string, AnySchema> = {
  Release,
  ReleaseList,
  ShotRun,
  Shot: ShotView,
  ReleaseShots,
  SourceApp,
  Asset,
  AssetUpload: AssetUploadInstructions,
  AssetDownload,
  AssetDeletion: AssetDeletionAccepted,
  Screenshot: ScreenshotResponse,
  Bootstrap: BootstrapResponse,
  User: UserView,
  Organization: OrganizationView,
  OrganizationListItem,
  OrganizationList: OrganizationsResponse,
  Membership: MembershipView,
  Workspace: WorkspaceView,
  WorkspaceSettings,
  Entitlements: EntitlementView,
  Capabilities: CapabilityFlags,
  OrganizationCapabilities: CapabilitiesResponse,
  Counters,
  Members: MembersResponse,
  Invitations: InvitationsResponse,
  Permissions: PermissionsResponse,
};
