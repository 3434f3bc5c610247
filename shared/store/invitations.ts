/** Invitations to an organization, in its partition; an expired invitation reads as absent. */
import * as v from 'valibot';
import { InvitationRecord } from '#shared/schemas/identity.ts';
import { IdentityItems, type IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { keys, prefixes } from '#shared/store/keys.ts';

export class InvitationStore {
  private readonly items: IdentityItems;

  constructor(deps: IdentityStoreDeps) {
    this.items = new IdentityItems(deps);
  }

  /** Invitations that have not expired, newest first. */
  async listInvitations(organizationId: string): Promise<InvitationRecord[]> {
    const items = await this.items.queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.organization(organizationId).pk, ':prefix': prefixes.invitation },
    });
    // ISO timestamps are fixed width, so `<` orders them without loading ICU's collator.
    return items.map((item) => v.parse(InvitationRecord, item)).sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }

  async countPendingInvitations(organizationId: string): Promise<number> {
    return this.items.count({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: '#status = :pending AND expiresAt > :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': keys.organization(organizationId).pk,
        ':prefix': prefixes.invitation,
        ':pending': 'pending',
        ':now': this.items.nowSeconds(),
      },
    });
  }

  async putInvitation(record: InvitationRecord): Promise<void> {
    await this.items.create({ ...keys.invitation(record.organizationId, record.invitationId), ...record }, 'Invitation');
  }
}
