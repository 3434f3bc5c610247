/** Organizations and their workspaces. API keys carry a copy of the organization's entitlement; the admin service keeps the two in step. */
import * as v from 'valibot';
import { NotFoundError } from '#shared/errors.ts';
import type { Entitlement } from '#shared/identity/plans.ts';
import { OrganizationRecord, WorkspaceRecord } from '#shared/schemas/identity.ts';
import type { DeletionState } from '#shared/schemas/identity.ts';
import { AlreadyExistsError, IdentityItems, type IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { keys } from '#shared/store/keys.ts';

export class OrganizationStore {
  private readonly items: IdentityItems;

  constructor(deps: IdentityStoreDeps) {
    this.items = new IdentityItems(deps);
  }

  async getOrganization(organizationId: string, consistent = false): Promise<OrganizationRecord | undefined> {
    const item = await this.items.get(keys.organization(organizationId), consistent);
    return item && v.parse(OrganizationRecord, item);
  }

  async getOrganizations(organizationIds: readonly string[]): Promise<OrganizationRecord[]> {
    const items = await this.items.batchGet([...new Set(organizationIds)].map((id) => keys.organization(id)));
    return items.map((item) => v.parse(OrganizationRecord, item));
  }

  async getWorkspace(workspaceId: string): Promise<WorkspaceRecord | undefined> {
    const item = await this.items.get(keys.workspace(workspaceId));
    return item && v.parse(WorkspaceRecord, item);
  }

  /** The workspace is written first: an organization never points at a missing workspace. */
  async createOrganization(organization: OrganizationRecord, workspace: WorkspaceRecord): Promise<void> {
    await this.items.create({ ...keys.workspace(workspace.workspaceId), ...workspace }, 'Workspace');
    await this.items.create({ ...keys.organization(organization.organizationId), ...organization }, 'Organization');
  }

  /** Writes whichever of the workspace and organization is missing: a creation cut short is finished by the next. */
  async ensureOrganization(organization: OrganizationRecord, workspace: WorkspaceRecord): Promise<void> {
    for (const [item, what] of [
      [{ ...keys.workspace(workspace.workspaceId), ...workspace }, 'Workspace'],
      [{ ...keys.organization(organization.organizationId), ...organization }, 'Organization'],
    ] as const) {
      try {
        await this.items.create(item, what);
      } catch (error) {
        if (!(error instanceof AlreadyExistsError)) throw error;
      }
    }
  }

  /** Changes an organization's entitlement (not its keys' copies); 404 when there is no such organization. */
  async setEntitlement(organizationId: string, entitlement: Entitlement): Promise<void> {
    const updated = await this.items.updateExisting(keys.organization(organizationId), {
      UpdateExpression: 'SET entitlement = :entitlement',
      ExpressionAttributeValues: { ':entitlement': entitlement },
    });
    if (!updated) throw new NotFoundError('Organization not found', `No organization ${organizationId}.`);
  }

  /** Sets a deletion state (keys are revoked separately); returns its time for those revocations. */
  async setDeletionState(organizationId: string, state: Exclude<DeletionState, 'active'>): Promise<string> {
    const at = this.items.now().toISOString();
    const updated = await this.items.updateExisting(keys.organization(organizationId), {
      UpdateExpression: 'SET deletionState = :state, deletionRequestedAt = if_not_exists(deletionRequestedAt, :at)',
      ExpressionAttributeValues: { ':state': state, ':at': at },
    });
    if (!updated) throw new NotFoundError('Organization not found', `No organization ${organizationId}.`);
    return at;
  }
}
