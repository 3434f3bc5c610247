/** What the identity stores share. A past `expiresAt` (epoch seconds) reads as absent: DynamoDB's TTL deletes only eventually. */
import { GetCommand, PutCommand, type DynamoDBDocumentClient, type QueryCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '#shared/errors.ts';
import { batchGetAll, countAll, deleteIf, putIfAbsent, queryAll, updateIf } from '#shared/store/dynamodb-calls.ts';
import { guard } from '#shared/store/outage.ts';

export type Key = { pk: string; sk: string };
export type Item = Record<string, unknown>;

const TABLE = 'The workspace table';

/** The public members of a store (an intersection of classes with private fields would be `never`). */
type Operations<T> = { [K in keyof T]: T[K] };
export type Joined<T extends object[]> = T extends [infer Head, ...infer Rest extends object[]] ? Operations<Head> & Joined<Rest> : unknown;

/** Fills a service's port (a `Pick` of several stores) with their bound methods; names are unique across stores, so a clash throws. */
export function joinStores<T extends object[]>(...stores: T): Joined<T> {
  const joined: Record<string, unknown> = {};
  for (const store of stores) {
    for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(store))) {
      const member: unknown = (store as Record<string, unknown>)[name];
      if (name === 'constructor' || typeof member !== 'function') continue;
      if (name in joined) throw new Error(`Two stores both have ${name}()`);
      joined[name] = member.bind(store);
    }
  }
  return joined as Joined<T>;
}

export class AlreadyExistsError extends ConflictError {
  override readonly name: string = 'AlreadyExistsError';
  constructor(what: string) {
    super(`${what} already exists`, `Use the existing ${what.toLowerCase()}, or choose another identifier.`);
  }
}

export interface IdentityStoreDeps {
  dynamo: DynamoDBDocumentClient;
  table: string;
  now?: () => Date;
}

/** A condition that the item exists, and `condition` holds when there is one. */
const existingAnd = (condition: string | undefined) => (condition ? `attribute_exists(pk) AND (${condition})` : 'attribute_exists(pk)');

/** The identity items of the workspace table, read and written with expiry and conflicts applied. */
export class IdentityItems {
  private readonly dynamo: DynamoDBDocumentClient;
  private readonly table: string;
  readonly now: () => Date;

  constructor(deps: IdentityStoreDeps) {
    this.dynamo = deps.dynamo;
    this.table = deps.table;
    this.now = deps.now ?? (() => new Date());
  }

  nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  private live(item: Item | undefined): Item | undefined {
    if (!item) return undefined;
    return typeof item.expiresAt === 'number' && item.expiresAt <= this.nowSeconds() ? undefined : item;
  }

  private liveOnly(items: Item[]): Item[] {
    return items.filter((item) => this.live(item) !== undefined);
  }

  async get(key: Key, consistent = false): Promise<Item | undefined> {
    const { Item } = await guard(TABLE, () => this.dynamo.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: consistent })));
    return this.live(Item);
  }

  async batchGet(keyList: readonly Key[], consistent = false): Promise<Item[]> {
    return this.liveOnly(await batchGetAll(TABLE, this.dynamo, this.table, keyList, consistent));
  }

  async queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
    return this.liveOnly(await this.queryIncludingExpired(input));
  }

  /** Expired items too, for answers that say something expired rather than that it never was. */
  async queryIncludingExpired(input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
    return queryAll(TABLE, this.dynamo, { ...input, TableName: this.table });
  }

  async count(input: Omit<QueryCommandInput, 'TableName' | 'Select'>): Promise<number> {
    return countAll(TABLE, this.dynamo, { ...input, TableName: this.table });
  }

  /** Writes an item that must not exist yet; AlreadyExistsError naming `what` when it does. */
  async create(item: Item, what: string): Promise<void> {
    if (!(await putIfAbsent(TABLE, this.dynamo, { table: this.table, item }))) throw new AlreadyExistsError(what);
  }

  /** Writes an item whatever holds its key: for records a newer one replaces (an address's code). */
  async replace(item: Item): Promise<void> {
    await guard(TABLE, () => this.dynamo.send(new PutCommand({ TableName: this.table, Item: item })));
  }

  /** Deletes an item when it exists and the condition holds; false otherwise. */
  async remove(key: Key, condition?: { expression: string; values: Record<string, unknown> }): Promise<boolean> {
    return deleteIf(TABLE, this.dynamo, {
      TableName: this.table,
      Key: key,
      ConditionExpression: existingAnd(condition?.expression),
      ...(condition ? { ExpressionAttributeValues: condition.values } : {}),
    });
  }

  /** The item after an update that must find it (and meet `ConditionExpression`); undefined otherwise. */
  async updateReturning(key: Key, update: Omit<UpdateCommandInput, 'TableName' | 'Key' | 'ReturnValues'>): Promise<Item | undefined> {
    return updateIf(TABLE, this.dynamo, {
      ...update,
      TableName: this.table,
      Key: key,
      ConditionExpression: existingAnd(update.ConditionExpression),
      ReturnValues: 'ALL_NEW',
    });
  }

  /** Applies an update to an item that must exist; returns false when it does not (or `ConditionExpression` fails). */
  async updateExisting(key: Key, update: Omit<UpdateCommandInput, 'TableName' | 'Key'>): Promise<boolean> {
    const updated = await updateIf(TABLE, this.dynamo, {
      ...update,
      TableName: this.table,
      Key: key,
      ConditionExpression: existingAnd(update.ConditionExpression),
    });
    return updated !== undefined;
  }
}
