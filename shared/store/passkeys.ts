/** Passkeys, under their credential id (a sign-in is one GetItem) and, through gsi1, their user's. */
import * as v from 'valibot';
import { PasskeyRecord } from '#shared/schemas/sign-in.ts';
import { IdentityItems, type IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { indexKeys, keys, prefixes } from '#shared/store/keys.ts';

export class PasskeyStore {
  private readonly items: IdentityItems;

  constructor(deps: IdentityStoreDeps) {
    this.items = new IdentityItems(deps);
  }

  async getPasskey(credentialId: string): Promise<PasskeyRecord | undefined> {
    const item = await this.items.get(keys.passkey(credentialId), true);
    return item && v.parse(PasskeyRecord, item);
  }

  /** AlreadyExistsError when the credential is registered (to anyone). */
  async putPasskey(record: PasskeyRecord): Promise<void> {
    await this.items.create({ ...keys.passkey(record.credentialId), ...indexKeys.passkeyOfUser(record.userId, record.passkeyId), ...record }, 'Passkey');
  }

  async listPasskeysOfUser(userId: string): Promise<PasskeyRecord[]> {
    const items = await this.items.queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': indexKeys.userPartition(userId), ':prefix': prefixes.passkey },
    });
    return items.map((item) => v.parse(PasskeyRecord, item));
  }

  /** Records a sign-in; the counter only moves forward, so a cloned authenticator's older count loses. */
  async recordPasskeyUse(credentialId: string, use: { counter: number; backedUp: boolean }): Promise<boolean> {
    return this.items.updateExisting(keys.passkey(credentialId), {
      UpdateExpression: 'SET #counter = :counter, backedUp = :backedUp, lastUsedAt = :at',
      ConditionExpression: '#counter < :counter OR :counter = :zero',
      ExpressionAttributeNames: { '#counter': 'counter' },
      ExpressionAttributeValues: { ':counter': use.counter, ':backedUp': use.backedUp, ':at': this.items.now().toISOString(), ':zero': 0 },
    });
  }

  /** Deletes the credential only when it is the user's: false otherwise. */
  async deletePasskey(credentialId: string, userId: string): Promise<boolean> {
    return this.items.remove(keys.passkey(credentialId), { expression: 'userId = :user', values: { ':user': userId } });
  }
}
