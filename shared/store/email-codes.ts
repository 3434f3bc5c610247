/** E-mail sign-in codes (one per address hash, holding the code's hash); a conditional update counts each try before comparing: no race past the limit. */
import * as v from 'valibot';
import { EmailCodeRecord } from '#shared/schemas/sign-in.ts';
import { IdentityItems, type IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { keys } from '#shared/store/keys.ts';

/** Why a try was not counted. */
export type RefusedTry = 'none' | 'spent';

export class EmailCodeStore {
  private readonly items: IdentityItems;

  constructor(deps: IdentityStoreDeps) {
    this.items = new IdentityItems(deps);
  }

  /** A new code replaces the address's last one, used or not. */
  async putEmailCode(record: Omit<EmailCodeRecord, 'attempts' | 'usedAt'>): Promise<void> {
    await this.items.replace({ ...keys.emailCode(record.addressHash), ...record, attempts: 0 });
  }

  /** Counts a try of the live, unused code and returns it; `none` when there is none (never sent, expired, used), `spent` when out of tries. */
  async countEmailCodeTry(addressHash: string, maxTries: number): Promise<EmailCodeRecord | RefusedTry> {
    const key = keys.emailCode(addressHash);
    const item = await this.items.updateReturning(key, {
      UpdateExpression: 'SET attempts = attempts + :one',
      ConditionExpression: 'expiresAt > :now AND attribute_not_exists(usedAt) AND attempts < :max',
      ExpressionAttributeValues: { ':one': 1, ':now': this.items.nowSeconds(), ':max': maxTries },
    });
    if (item) return v.parse(EmailCodeRecord, item);
    // Only the refusal reads again, to tell a spent code from none.
    const current = await this.items.get(key, true);
    return current && current.usedAt === undefined && Number(current.attempts) >= maxTries ? 'spent' : 'none';
  }

  /** Marks the code used; false when another request used it first or it expired meanwhile. */
  async useEmailCode(addressHash: string, codeHash: string): Promise<boolean> {
    return this.items.updateExisting(keys.emailCode(addressHash), {
      UpdateExpression: 'SET usedAt = :at',
      ConditionExpression: 'attribute_not_exists(usedAt) AND expiresAt > :now AND codeHash = :hash',
      ExpressionAttributeValues: { ':at': this.items.now().toISOString(), ':now': this.items.nowSeconds(), ':hash': codeHash },
    });
  }
}
