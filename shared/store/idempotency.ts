/**
 * The Idempotency-Key records of the workspace operations that store their first answer
 * (shared/http/idempotency.ts), in the workspace table under the workspace's partition.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getConsistent, putOrGet, updateIf } from '#shared/store/dynamodb-calls.ts';
import { keys } from '#shared/store/keys.ts';
import { guard } from '#shared/store/outage.ts';

const WHAT = 'The idempotency store';

/** Pending while the first request runs; done with the answer it gave. */
export type IdempotencyRecord = { state: 'pending'; requestHash: string } | { state: 'done'; requestHash: string; status: number; body: string };

/** Where a record lives: the workspace, the operation and the SHA-256 of the key. */
export interface IdempotencySlot {
  workspaceId: string;
  operationId: string;
  keyHash: string;
}

function toRecord(item: Record<string, unknown>): IdempotencyRecord {
  const requestHash = String(item.requestHash);
  return item.state === 'done' ? { state: 'done', requestHash, status: Number(item.status), body: String(item.body) } : { state: 'pending', requestHash };
}

export class IdempotencyStore {
  private readonly dynamo: DynamoDBDocumentClient;
  private readonly table: string;

  constructor(deps: { dynamo: DynamoDBDocumentClient; table: string }) {
    this.dynamo = deps.dynamo;
    this.table = deps.table;
  }

  private key(slot: IdempotencySlot) {
    return keys.idempotency(slot.workspaceId, slot.operationId, slot.keyHash);
  }

  /** Claims the slot for this request, or returns the live record that holds it (TTL deletion is lazy). */
  async claim(slot: IdempotencySlot, requestHash: string, time: { epoch: number; expiresAt: number }): Promise<IdempotencyRecord | undefined> {
    const key = this.key(slot);
    const put = await putOrGet(WHAT, this.dynamo, {
      table: this.table,
      key,
      item: { ...key, state: 'pending', requestHash, expiresAt: time.expiresAt },
      condition: 'attribute_not_exists(pk) OR expiresAt < :now',
      values: { ':now': time.epoch },
    });
    return put.created || !put.existing ? undefined : toRecord(put.existing);
  }

  async read(slot: IdempotencySlot): Promise<IdempotencyRecord | undefined> {
    const item = await getConsistent(WHAT, this.dynamo, this.table, this.key(slot));
    return item ? toRecord(item) : undefined;
  }

  /** Keeps the answer for replays; only the request that claimed the slot calls it. */
  async complete(slot: IdempotencySlot, answer: { status: number; body: string }): Promise<void> {
    await updateIf(WHAT, this.dynamo, {
      TableName: this.table,
      Key: this.key(slot),
      UpdateExpression: 'SET #state = :done, #status = :status, #body = :body',
      ConditionExpression: '#state = :pending',
      ExpressionAttributeNames: { '#state': 'state', '#status': 'status', '#body': 'body' },
      ExpressionAttributeValues: { ':done': 'done', ':pending': 'pending', ':status': answer.status, ':body': answer.body },
    });
  }

  /** Frees the slot of a request that failed, so a retry with the same key runs again. */
  async release(slot: IdempotencySlot): Promise<void> {
    await guard(WHAT, () =>
      this.dynamo.send(
        new DeleteCommand({
          TableName: this.table,
          Key: this.key(slot),
          ConditionExpression: '#state = :pending',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':pending': 'pending' },
        }),
      ),
    ).catch((error: unknown) => {
      // Already done or gone: nothing to free.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    });
  }
}
