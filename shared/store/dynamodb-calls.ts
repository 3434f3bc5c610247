/** The DynamoDB calls the stores share, each through guard() so an outage is 503. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type DeleteCommandInput,
  type QueryCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import { guard } from '#shared/store/outage.ts';

interface ConditionalPut {
  table: string;
  item: Record<string, unknown>;
  /** In place of `attribute_not_exists(pk)`, e.g. to let an expired item be overwritten. */
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

function conditionalPut(put: ConditionalPut, returnOld = false): PutCommand {
  return new PutCommand({
    TableName: put.table,
    Item: put.item,
    ConditionExpression: put.condition ?? 'attribute_not_exists(pk)',
    ...(put.names ? { ExpressionAttributeNames: put.names } : {}),
    ...(put.values ? { ExpressionAttributeValues: put.values } : {}),
    ...(returnOld ? { ReturnValues: 'ALL_OLD' as const, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
  });
}

/** Writes `item` unless its key is taken (or the condition fails): false then. */
export async function putIfAbsent(what: string, dynamo: DynamoDBDocumentClient, put: ConditionalPut): Promise<boolean> {
  try {
    await guard(what, () => dynamo.send(conditionalPut(put)));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Reads one item with a strongly consistent read, so a write that just won a race is seen. */
export async function getConsistent(
  what: string,
  dynamo: DynamoDBDocumentClient,
  table: string,
  key: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  const { Item } = await guard(what, () => dynamo.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }), { abortSignal: signal }));
  return Item;
}

/**
 * Idempotent creation: writes `item` (`replaced`: the item it overwrote, where the condition lets one be), or returns
 * what holds its key (undefined if it vanished, e.g. by TTL), in one round trip on DynamoDB.
 */
export async function putOrGet(
  what: string,
  dynamo: DynamoDBDocumentClient,
  put: ConditionalPut & { key: Record<string, unknown>; signal?: AbortSignal },
): Promise<{ created: true; replaced?: Record<string, unknown> } | { created: false; existing: Record<string, unknown> | undefined }> {
  try {
    const { Attributes } = await guard(what, () => dynamo.send(conditionalPut(put, true), { abortSignal: put.signal }));
    return Attributes ? { created: true, replaced: Attributes } : { created: true };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // DynamoDB answers with the item that failed the condition; a stand-in that does not (dynalite) costs a read.
    return { created: false, existing: error.Item ? unmarshall(error.Item) : await getConsistent(what, dynamo, put.table, put.key, put.signal) };
  }
}

/** The new attributes when the condition held (`{}` without ReturnValues), undefined when it failed. */
export async function updateIf(
  what: string,
  dynamo: DynamoDBDocumentClient,
  update: UpdateCommandInput & { ConditionExpression: string },
  signal?: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  try {
    const { Attributes } = await guard(what, () => dynamo.send(new UpdateCommand(update), { abortSignal: signal }));
    return Attributes ?? {};
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Deletes an item when the condition holds: false when it did not (or the item was not there). */
export async function deleteIf(
  what: string,
  dynamo: DynamoDBDocumentClient,
  input: DeleteCommandInput & { ConditionExpression: string },
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    await guard(what, () => dynamo.send(new DeleteCommand(input), { abortSignal: signal }));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export async function queryAll(what: string, dynamo: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await guard(what, () => dynamo.send(new QueryCommand({ ...input, ExclusiveStartKey })));
    out.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}

/** How many items a query matches (after its filter), page after page, reading none of them back. */
export async function countAll(what: string, dynamo: DynamoDBDocumentClient, input: Omit<QueryCommandInput, 'Select'>): Promise<number> {
  let total = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await guard(what, () => dynamo.send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey })));
    total += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return total;
}

const BATCH_GET_LIMIT = 100;
const BATCH_WRITE_LIMIT = 25;

/** Sends `items` in batches of `size`, sending again what DynamoDB left unprocessed, with back-off; 503 when that persists. */
async function inBatches<T>(what: string, items: readonly T[], size: number, send: (batch: T[]) => Promise<T[] | undefined>): Promise<void> {
  for (let start = 0; start < items.length; start += size) {
    let pending: T[] | undefined = items.slice(start, start + size);
    for (let attempt = 0; pending && pending.length > 0; attempt += 1) {
      // Give up before waiting: a back-off that no attempt follows only delays the 503.
      if (attempt > 5) throw new UpstreamUnavailableError(`${what} is throttling; retry with back-off.`);
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
      pending = await send(pending);
    }
  }
}

/** Reads items by key in batches, retrying unprocessed keys with back-off; 503 when they persist. */
export async function batchGetAll(
  what: string,
  dynamo: DynamoDBDocumentClient,
  table: string,
  keys: readonly Record<string, unknown>[],
  consistent = false,
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  await inBatches(what, keys, BATCH_GET_LIMIT, async (request) => {
    const result = await guard(what, () => dynamo.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: request, ConsistentRead: consistent } } })));
    out.push(...(result.Responses?.[table] ?? []));
    return result.UnprocessedKeys?.[table]?.Keys;
  });
  return out;
}

/** Puts items in batches (unconditionally: a batch write takes no condition), retrying unprocessed ones with back-off. */
export async function batchPutAll(what: string, dynamo: DynamoDBDocumentClient, table: string, items: readonly Record<string, unknown>[]): Promise<void> {
  await inBatches(what, items, BATCH_WRITE_LIMIT, async (batch) => {
    const result = await guard(what, () => dynamo.send(new BatchWriteCommand({ RequestItems: { [table]: batch.map((Item) => ({ PutRequest: { Item } })) } })));
    return result.UnprocessedItems?.[table]?.flatMap((request) => (request.PutRequest?.Item ? [request.PutRequest.Item] : []));
  });
}
