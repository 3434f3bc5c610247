/** Memberships: a user's role in an organization, in the organization's partition and, through gsi1, the user's. */
import * as v from 'valibot';
import { MembershipRecord, OrganizationRecord } from '#shared/schemas/identity.ts';
import { IdentityItems, type IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { indexKeys, keys, prefixes } from '#shared/store/keys.ts';

/** What the auth middleware needs to know about a member of an organization, read in one round trip. */
export interface MemberContext {
  organization: OrganizationRecord | undefined;
  membership: MembershipRecord | undefined;
}

export class MembershipStore {
  private readonly items: IdentityItems;

  constructor(deps: IdentityStoreDeps) {
    this.items = new IdentityItems(deps);
  }

  async getMemberContext(organizationId: string, userId: string, consistent = false): Promise<MemberContext> {
    const items = await this.items.batchGet([keys.organization(organizationId), keys.membership(organizationId, userId)], consistent);
    const organization = items.find((item) => item.sk === 'ORG');
    const membership = items.find((item) => item.sk !== 'ORG');
    return {
      organization: organization && v.parse(OrganizationRecord, organization),
      membership: membership && v.parse(MembershipRecord, membership),
    };
  }

  /** Memberships of a user across organizations (gsi1). */
  async listMembershipsOfUser(userId: string): Promise<MembershipRecord[]> {
    const items = await this.items.queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': indexKeys.userPartition(userId), ':prefix': prefixes.organization },
    });
    return items.map((item) => v.parse(MembershipRecord, item));
  }

  async listMembers(organizationId: string): Promise<MembershipRecord[]> {
    const items = await this.items.queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.organization(organizationId).pk, ':prefix': prefixes.member },
    });
    return items.map((item) => v.parse(MembershipRecord, item));
  }

  async countMembers(organizationId: string): Promise<number> {
    return this.items.count({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.organization(organizationId).pk, ':prefix': prefixes.member },
    });
  }

  async putMembership(record: MembershipRecord): Promise<void> {
    await this.items.create(
      { ...keys.membership(record.organizationId, record.userId), ...indexKeys.membershipOfUser(record.userId, record.organizationId), ...record },
      'Membership',
    );
  }
}
