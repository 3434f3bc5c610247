/** Idempotency-Key records of the operations that store their first answer (shared/http/idempotency.ts), in the workspace's partition. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { deleteIf, getConsistent, putOrGet, updateIf } from '#shared/store/dynamodb-calls.ts';
import { keys } from '#shared/store/keys.ts';

const WHAT = 'The idempotency store';

/** Pending while the request that claimed it runs, until its lease ends; done with the answer it gave. */
export type IdempotencyRecord = { state: 'pending'; requestHash: string } | { state: 'done'; requestHash: string; status: number; body: string };

/** Where a record lives: the workspace, the operation and the SHA-256 of the key. */
export interface IdempotencySlot {
  workspaceId: string;
  operationId: string;
  keyHash: string;
}

/** A request's claim: `owner` is its request id; `now` and `leaseEnds` are epoch seconds. */
export interface IdempotencyClaim {
  requestHash: string;
  owner: string;
  now: number;
  leaseEnds: number;
}

export type ClaimOutcome =
  /** `tookOver`: the owner of an expired pending claim, which ended without storing an answer. */
  { claimed: true; tookOver?: string } | { claimed: false; record: IdempotencyRecord | undefined };

/** The record of `item`, unless it expired before `now` (epoch seconds). */
function live(item: Record<string, unknown> | undefined, now: number): IdempotencyRecord | undefined {
  if (!item || Number(item.expiresAt) < now) return undefined;
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

  /** Claims the slot until `leaseEnds`, taking over an expired record (TTL deletion is lazy), or reads the live one. */
  async claim(slot: IdempotencySlot, claim: IdempotencyClaim, signal?: AbortSignal): Promise<ClaimOutcome> {
    const key = this.key(slot);
    const put = await putOrGet(WHAT, this.dynamo, {
      table: this.table,
      key,
      item: { ...key, state: 'pending', requestHash: claim.requestHash, owner: claim.owner, expiresAt: claim.leaseEnds },
      condition: 'attribute_not_exists(pk) OR expiresAt < :now',
      values: { ':now': claim.now },
      signal,
    });
    if (!put.created) return { claimed: false, record: live(put.existing, claim.now) };
    return put.replaced?.state === 'pending' ? { claimed: true, tookOver: String(put.replaced.owner) } : { claimed: true };
  }

  /** The live record; one past its expiry (`now`, epoch seconds) reads as absent. */
  async read(slot: IdempotencySlot, now: number, signal?: AbortSignal): Promise<IdempotencyRecord | undefined> {
    return live(await getConsistent(WHAT, this.dynamo, this.table, this.key(slot), signal), now);
  }

  /** Keeps the answer for replays until `keepUntil`; false when the claim is no longer `owner`'s. */
  async complete(slot: IdempotencySlot, owner: string, answer: { status: number; body: string; keepUntil: number }, signal?: AbortSignal): Promise<boolean> {
    const updated = await updateIf(
      WHAT,
      this.dynamo,
      {
        TableName: this.table,
        Key: this.key(slot),
        UpdateExpression: 'SET #state = :done, #status = :status, #body = :body, expiresAt = :keepUntil',
        ConditionExpression: '#state = :pending AND #owner = :owner',
        ExpressionAttributeNames: { '#state': 'state', '#status': 'status', '#body': 'body', '#owner': 'owner' },
        ExpressionAttributeValues: {
          ':done': 'done',
          ':pending': 'pending',
          ':owner': owner,
          ':status': answer.status,
          ':body': answer.body,
          ':keepUntil': answer.keepUntil,
        },
      },
      signal,
    );
    return updated !== undefined;
  }

  /** Frees `owner`'s pending claim, so a retry with the same key runs again at once. */
  async release(slot: IdempotencySlot, owner: string, signal?: AbortSignal): Promise<void> {
    // False when done, gone, or taken over: nothing of this request's to free.
    await deleteIf(
      WHAT,
      this.dynamo,
      {
        TableName: this.table,
        Key: this.key(slot),
        ConditionExpression: '#state = :pending AND #owner = :owner',
        ExpressionAttributeNames: { '#state': 'state', '#owner': 'owner' },
        ExpressionAttributeValues: { ':pending': 'pending', ':owner': owner },
      },
      signal,
    );
  }
}
