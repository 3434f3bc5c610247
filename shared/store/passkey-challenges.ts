/** WebAuthn challenges, kept server-side for minutes and taken once: a replayed answer finds none. */
import * as v from 'valibot';
import { ChallengeRecord } from '#shared/schemas/sign-in.ts';
import { IdentityItems, type IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { keys } from '#shared/store/keys.ts';

export class PasskeyChallengeStore {
  private readonly items: IdentityItems;

  constructor(deps: IdentityStoreDeps) {
    this.items = new IdentityItems(deps);
  }

  async putChallenge(record: ChallengeRecord): Promise<void> {
    await this.items.create({ ...keys.challenge(record.challenge), ...record }, 'Challenge');
  }

  /** Marks the challenge used and returns it, once; undefined when unknown, used, expired or for another purpose. */
  async takeChallenge(challenge: string, purpose: ChallengeRecord['purpose']): Promise<ChallengeRecord | undefined> {
    const item = await this.items.updateReturning(keys.challenge(challenge), {
      UpdateExpression: 'SET usedAt = :at',
      ConditionExpression: 'attribute_not_exists(usedAt) AND expiresAt > :now AND purpose = :purpose',
      ExpressionAttributeValues: { ':at': this.items.now().toISOString(), ':now': this.items.nowSeconds(), ':purpose': purpose },
    });
    return item && v.parse(ChallengeRecord, item);
  }
}
