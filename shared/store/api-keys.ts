/** Organization API keys, in the workspace table: each key under the SHA-256 of its secret, and a reference to it in its organization's partition. */
import * as v from 'valibot';
import type { Entitlement } from '#shared/identity/plans.ts';
import { ApiKeyRecord } from '#shared/schemas/identity.ts';
import { IdentityItems, type IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { API_KEY_LAST_USED, indexKeys, keys, prefixes } from '#shared/store/keys.ts';

export class ApiKeyStore {
  private readonly items: IdentityItems;

  constructor(deps: IdentityStoreDeps) {
    this.items = new IdentityItems(deps);
  }

  /** The key with this hash, revoked or not, read strongly consistent. */
  async getApiKey(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const item = await this.items.get(keys.apiKey(keyHash), true);
    return item && v.parse(ApiKeyRecord, item);
  }

  /** Sets only `lastUsedAt` and reads nothing back: the stamp's IAM grant allows no more. */
  async touchApiKey(keyHash: string, at: string): Promise<void> {
    await this.items.updateExisting(keys.apiKey(keyHash), {
      UpdateExpression: `SET ${API_KEY_LAST_USED} = :at`,
      ExpressionAttributeValues: { ':at': at },
    });
  }

  /** The organization's reference first: plan changes and deletions find keys by it consistently (gsi1 lags), so none is missed. */
  async putApiKey(record: ApiKeyRecord): Promise<void> {
    await this.items.create({ ...keys.apiKeyRef(record.organizationId, record.keyId), keyId: record.keyId, keyHash: record.keyHash }, 'API key reference');
    await this.items.create({ ...keys.apiKey(record.keyHash), ...indexKeys.apiKeyOfOrganization(record.organizationId, record.keyId), ...record }, 'API key');
  }

  /** Hashes of every key of an organization, from the references: strongly consistent. */
  async apiKeyHashes(organizationId: string): Promise<string[]> {
    const items = await this.items.queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.organization(organizationId).pk, ':prefix': prefixes.apiKeyRef },
      ConsistentRead: true,
    });
    return items.map((item) => String(item.keyHash));
  }

  /** Every key of an organization, revoked ones included, newest first. */
  async listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    const items = await this.items.queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': indexKeys.organizationPartition(organizationId), ':prefix': prefixes.apiKey },
    });
    // ISO timestamps are fixed width, so `<` orders them without loading ICU's collator.
    return items.map((item) => v.parse(ApiKeyRecord, item)).sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }

  async countActiveApiKeys(organizationId: string): Promise<number> {
    return this.items.count({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      FilterExpression: 'attribute_not_exists(revokedAt)',
      ExpressionAttributeValues: { ':pk': indexKeys.organizationPartition(organizationId), ':prefix': prefixes.apiKey },
    });
  }

  /** Revokes a key; false when there is no such key. Revoking twice keeps the first time. */
  async revokeApiKey(keyHash: string, at: string): Promise<boolean> {
    return this.items.updateExisting(keys.apiKey(keyHash), {
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
      ExpressionAttributeValues: { ':at': at },
    });
  }

  /** Copies an organization's entitlement onto one of its keys (false when the key is not written yet). */
  async copyEntitlementToKey(keyHash: string, entitlement: Entitlement): Promise<boolean> {
    return this.items.updateExisting(keys.apiKey(keyHash), {
      UpdateExpression: 'SET entitlement = :entitlement',
      ExpressionAttributeValues: { ':entitlement': entitlement },
    });
  }
}
