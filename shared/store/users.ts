/** Users, in the workspace table, and the claims that keep their e-mail addresses unique. */
import * as v from 'valibot';
import { UserRecord } from '#shared/schemas/identity.ts';
import { IdentityItems, type IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { keys } from '#shared/store/keys.ts';

export class UserStore {
  private readonly items: IdentityItems;

  constructor(deps: IdentityStoreDeps) {
    this.items = new IdentityItems(deps);
  }

  async getUser(userId: string): Promise<UserRecord | undefined> {
    const item = await this.items.get(keys.user(userId));
    return item && v.parse(UserRecord, item);
  }

  async getUsers(userIds: readonly string[]): Promise<UserRecord[]> {
    const items = await this.items.batchGet([...new Set(userIds)].map((id) => keys.user(id)));
    return items.map((item) => v.parse(UserRecord, item));
  }

  /** The user registered with an e-mail address (case-insensitive). */
  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    const claim = await this.items.get(keys.userEmail(email), true);
    return typeof claim?.userId === 'string' ? this.getUser(claim.userId) : undefined;
  }

  /** The user id an address is claimed for, whether or not that user's record was written. */
  async claimedUserId(email: string): Promise<string | undefined> {
    const claim = await this.items.get(keys.userEmail(email), true);
    return typeof claim?.userId === 'string' ? claim.userId : undefined;
  }

  /** Writes the record of a user whose address is already claimed for it (a creation cut short). */
  async putUserRecord(record: UserRecord): Promise<void> {
    await this.items.create({ ...keys.user(record.userId), ...record }, 'User');
  }

  /** Claims the e-mail first with a conditional write, so concurrent creations cannot share it. */
  async createUser(record: UserRecord): Promise<void> {
    await this.items.create({ ...keys.userEmail(record.email), userId: record.userId, email: record.email.toLowerCase() }, 'User with this e-mail');
    await this.items.create({ ...keys.user(record.userId), ...record }, 'User');
  }
}
