/** Editor sessions, under the SHA-256 of their token; an expired session reads as absent. */
import * as v from 'valibot';
import { SessionRecord } from '#shared/schemas/identity.ts';
import { IdentityItems, type IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { indexKeys, keys, prefixes } from '#shared/store/keys.ts';

export class SessionStore {
  private readonly items: IdentityItems;

  constructor(deps: IdentityStoreDeps) {
    this.items = new IdentityItems(deps);
  }

  /** The live (not expired) session with this hash; one strongly consistent GetItem. */
  async getSession(tokenHash: string): Promise<SessionRecord | undefined> {
    const item = await this.items.get(keys.session(tokenHash), true);
    return item && v.parse(SessionRecord, item);
  }

  async putSession(record: SessionRecord): Promise<void> {
    await this.items.create({ ...keys.session(record.tokenHash), ...indexKeys.sessionOfUser(record.userId, record.sessionId), ...record }, 'Session');
  }

  async listSessionsOfUser(userId: string): Promise<SessionRecord[]> {
    const items = await this.items.queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': indexKeys.userPartition(userId), ':prefix': prefixes.session },
    });
    return items.map((item) => v.parse(SessionRecord, item));
  }

  /** Ends a session at once by making it expired (the TTL then removes it). */
  async endSession(tokenHash: string): Promise<boolean> {
    return this.items.updateExisting(keys.session(tokenHash), {
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': 0 },
    });
  }

  /** Stamps `lastSeenAt` at most once per `intervalSeconds` however often the page opens; false when nothing was written. */
  async touchSession(tokenHash: string, intervalSeconds: number): Promise<boolean> {
    const now = this.items.now();
    return this.items.updateExisting(keys.session(tokenHash), {
      UpdateExpression: 'SET lastSeenAt = :at',
      ConditionExpression: 'expiresAt > :now AND (attribute_not_exists(lastSeenAt) OR lastSeenAt < :before)',
      ExpressionAttributeValues: {
        ':at': now.toISOString(),
        ':now': this.items.nowSeconds(),
        ':before': new Date(now.getTime() - intervalSeconds * 1000).toISOString(),
      },
    });
  }

  /** False when the session expired or is gone: the condition keeps an ended session from reviving. */
  async setActiveOrganization(tokenHash: string, organizationId: string): Promise<boolean> {
    return this.items.updateExisting(keys.session(tokenHash), {
      UpdateExpression: 'SET activeOrganizationId = :org',
      ConditionExpression: 'expiresAt > :now',
      ExpressionAttributeValues: { ':org': organizationId, ':now': this.items.nowSeconds() },
    });
  }
}
