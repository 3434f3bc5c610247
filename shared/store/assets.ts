/** Asset records: pending → ready → deleting → deleted, each step one conditional write, so racing requests and redeliveries agree. */
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Asset } from '#shared/schemas/assets.ts';
import { keys } from '#shared/store/keys.ts';
import { guard } from '#shared/store/outage.ts';
import { getConsistent, putIfAbsent, updateIf } from '#shared/store/dynamodb-calls.ts';

const WHAT = 'The asset store';

/** The PUT writes `uploadKey`; completion copies verified bytes to `objectKey`, out of a reused URL's reach. */
export type AssetItem = Asset & { pk: string; sk: string; objectKey: string; uploadKey?: string; inUseBy?: Set<string> | string[] };

const STATUS = { '#status': 'status' };

export class AssetStore {
  private readonly dynamo: DynamoDBDocumentClient;
  private readonly table: string;

  constructor(deps: { dynamo: DynamoDBDocumentClient; table: string }) {
    this.dynamo = deps.dynamo;
    this.table = deps.table;
  }

  /** The record, read consistently (a completion or deletion that just happened is seen). */
  async get(workspaceId: string, assetId: string): Promise<AssetItem | undefined> {
    return (await getConsistent(WHAT, this.dynamo, this.table, keys.asset(workspaceId, assetId))) as AssetItem | undefined;
  }

  /** Newest first (asset ids are UUIDv7), deleted ones left out, at most `limit` read; `last` is the last id read. */
  async list(workspaceId: string, page: { limit: number; after?: string }): Promise<{ items: AssetItem[]; last?: string }> {
    const { Items = [], LastEvaluatedKey } = await guard(WHAT, () =>
      this.dynamo.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          FilterExpression: '#status <> :deleted',
          ExpressionAttributeNames: STATUS,
          ExpressionAttributeValues: { ':pk': keys.asset(workspaceId, '').pk, ':prefix': keys.asset(workspaceId, '').sk, ':deleted': 'deleted' },
          ScanIndexForward: false,
          Limit: page.limit,
          ...(page.after ? { ExclusiveStartKey: keys.asset(workspaceId, page.after) } : {}),
        }),
      ),
    );
    const last = typeof LastEvaluatedKey?.sk === 'string' ? LastEvaluatedKey.sk.slice(keys.asset(workspaceId, '').sk.length) : undefined;
    return { items: Items as AssetItem[], ...(last ? { last } : {}) };
  }

  /** Writes a new record; its id is fresh, so a taken key is a bug, not a race. */
  async create(workspaceId: string, asset: Omit<AssetItem, 'pk' | 'sk'>): Promise<AssetItem> {
    const item = { ...keys.asset(workspaceId, asset.assetId), ...asset };
    if (!(await putIfAbsent(WHAT, this.dynamo, { table: this.table, item }))) throw new Error(`Asset id ${asset.assetId} is already taken`);
    return item;
  }

  /** A ready asset the service made under its own id (a shot's picture): a repeat replaces its record, never one being deleted (then false). */
  async putMade(workspaceId: string, asset: Omit<AssetItem, 'pk' | 'sk'> & Record<string, unknown>): Promise<boolean> {
    return putIfAbsent(WHAT, this.dynamo, {
      table: this.table,
      item: { ...keys.asset(workspaceId, asset.assetId), ...asset },
      condition: 'attribute_not_exists(pk) OR (#status = :ready AND classification = :classification)',
      names: STATUS,
      values: { ':ready': 'ready', ':classification': asset.classification },
    });
  }

  /** Pending → ready with the verified hash: the record as written, or undefined when it was no longer pending. */
  async markReady(workspaceId: string, assetId: string, done: { completedAt: string; sha256: string }): Promise<AssetItem | undefined> {
    return (await updateIf(WHAT, this.dynamo, {
      TableName: this.table,
      Key: keys.asset(workspaceId, assetId),
      UpdateExpression: 'SET #status = :ready, completedAt = :at, sha256 = :sha',
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: STATUS,
      ExpressionAttributeValues: { ':ready': 'ready', ':pending': 'pending', ':at': done.completedAt, ':sha': done.sha256 },
      ReturnValues: 'ALL_NEW',
    })) as AssetItem | undefined;
  }

  /** Ready and unreferenced → deleting: false when the asset was not (any more) both. */
  async markDeleting(workspaceId: string, assetId: string, requestedAt: string): Promise<boolean> {
    const updated = await updateIf(WHAT, this.dynamo, {
      TableName: this.table,
      Key: keys.asset(workspaceId, assetId),
      UpdateExpression: 'SET #status = :deleting, deletionRequestedAt = :at',
      ConditionExpression: '#status = :ready AND (attribute_not_exists(inUseBy) OR size(inUseBy) = :zero)',
      ExpressionAttributeNames: STATUS,
      ExpressionAttributeValues: { ':deleting': 'deleting', ':ready': 'ready', ':zero': 0, ':at': requestedAt },
    });
    return updated !== undefined;
  }

  /** Deleting → ready again, for a deletion that could not be queued. */
  async unmarkDeleting(workspaceId: string, assetId: string): Promise<void> {
    await updateIf(WHAT, this.dynamo, {
      TableName: this.table,
      Key: keys.asset(workspaceId, assetId),
      UpdateExpression: 'SET #status = :ready REMOVE deletionRequestedAt',
      ConditionExpression: '#status = :deleting',
      ExpressionAttributeNames: STATUS,
      ExpressionAttributeValues: { ':ready': 'ready', ':deleting': 'deleting' },
    });
  }

  /** Deleting → deleted: false when the record is gone or no longer deleting (a concurrent delivery finished first). */
  async markDeleted(workspaceId: string, assetId: string, deletedAt: string): Promise<boolean> {
    const updated = await updateIf(WHAT, this.dynamo, {
      TableName: this.table,
      Key: keys.asset(workspaceId, assetId),
      UpdateExpression: 'SET #status = :deleted, deletedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND #status = :deleting',
      ExpressionAttributeNames: STATUS,
      ExpressionAttributeValues: { ':deleted': 'deleted', ':deleting': 'deleting', ':now': deletedAt },
    });
    return updated !== undefined;
  }
}
