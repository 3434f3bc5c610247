/** Invitations to an organization, in its partition; an expired invitation reads as absent. */
import * as v from 'valibot';
import { InvitationRecord } from '#shared/schemas/identity.ts';
import { IdentityItems, type IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { indexKeys, keys, prefixes } from '#shared/store/keys.ts';

/** Pending and not expired at `nowSeconds`: an invitation that can still be accepted. */
export const isPendingAt = (invitation: InvitationRecord, nowSeconds: number): boolean => invitation.status === 'pending' && invitation.expiresAt > nowSeconds;

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
    await this.items.create(
      { ...keys.invitation(record.organizationId, record.invitationId), ...indexKeys.invitationOfEmail(record.email, record.invitationId), ...record },
      'Invitation',
    );
  }

  /** Files an invitation written before invitations were indexed by address under its address. */
  async indexInvitation(record: InvitationRecord): Promise<void> {
    const index = indexKeys.invitationOfEmail(record.email, record.invitationId);
    await this.items.updateExisting(keys.invitation(record.organizationId, record.invitationId), {
      UpdateExpression: 'SET gsi1pk = :pk, gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': index.gsi1pk, ':sk': index.gsi1sk },
    });
  }

  /** Every invitation of an address across organizations, expired ones included, so an answer can say so. */
  async listInvitationsOfEmail(email: string): Promise<InvitationRecord[]> {
    const items = await this.items.queryIncludingExpired({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': indexKeys.inviteePartition(email), ':prefix': prefixes.invitation },
    });
    return items.map((item) => v.parse(InvitationRecord, item));
  }

  /** Pending → accepted by this user; accepted by them already passes again, so a retry adds a membership a failure left out. */
  async acceptInvitation(organizationId: string, invitationId: string, userId: string): Promise<boolean> {
    return this.items.updateExisting(keys.invitation(organizationId, invitationId), {
      UpdateExpression: 'SET #status = :accepted, acceptedBy = :user, acceptedAt = if_not_exists(acceptedAt, :at)',
      ConditionExpression: '(#status = :pending AND expiresAt > :now) OR (#status = :accepted AND acceptedBy = :user)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':accepted': 'accepted',
        ':pending': 'pending',
        ':user': userId,
        ':at': this.items.now().toISOString(),
        ':now': this.items.nowSeconds(),
      },
    });
  }

  /** Pending → revoked; false when it was not pending. */
  async revokeInvitation(organizationId: string, invitationId: string): Promise<boolean> {
    return this.items.updateExisting(keys.invitation(organizationId, invitationId), {
      UpdateExpression: 'SET #status = :revoked',
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':revoked': 'revoked', ':pending': 'pending' },
    });
  }
}
