/** A release's shots, one item per name; every worker step is conditional on the run's `runId`, so a stale message changes nothing. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Shot, ShotOptions, ShotStatus, ShotView } from '#shared/schemas/shots.ts';
import { keys, prefixes } from '#shared/store/keys.ts';
import { batchGetAll, batchPutAll, getConsistent, queryAll, updateIf } from '#shared/store/dynamodb-calls.ts';

const WHAT = 'The shot store';

/** An error as the shot keeps it; the reader adds the documentation link of the envelope. */
export type ShotFailure = Pick<NonNullable<ShotView['error']>, 'status' | 'code' | 'message' | 'hint'>;

/** What a done shot found: the picture and, beside it, what the answer shows of the capture and the comparison. */
export type ShotResult = Required<Pick<ShotView, 'assetId' | 'bytes' | 'width' | 'height'>> &
  Pick<ShotView, 'drawnUrl' | 'truncated' | 'report' | 'redactionCount' | 'login' | 'changes'>;

export interface ShotItem extends Partial<ShotResult> {
  releaseId: string;
  name: string;
  runId: string;
  status: ShotStatus;
  queuedAt: string;
  url: string;
  deviceType: Shot['deviceType'];
  colorScheme: Shot['colorScheme'];
  options: ShotOptions;
  threshold: number;
  mask?: Shot['mask'];
  /** Chosen when queued, so every delivery of the shot writes the same asset and diff. */
  pictureAssetId: string;
  diffAssetId: string;
  attempts?: number;
  /** Epoch ms until which the worker that claimed it may still be at work. */
  leaseUntil?: number;
  startedAt?: string;
  finishedAt?: string;
  error?: ShotFailure;
}

const NAMES = { '#status': 'status' };

export class ShotStore {
  private readonly dynamo: DynamoDBDocumentClient;
  private readonly table: string;

  constructor(deps: { dynamo: DynamoDBDocumentClient; table: string }) {
    this.dynamo = deps.dynamo;
    this.table = deps.table;
  }

  /** Writes the queued shots, replacing those of the same names (their workers' writes then fail on runId). */
  async putQueued(workspaceId: string, shots: readonly ShotItem[]): Promise<void> {
    await batchPutAll(
      WHAT,
      this.dynamo,
      this.table,
      shots.map((shot) => ({ ...keys.shot(workspaceId, shot.releaseId, shot.name), ...shot })),
    );
  }

  async get(workspaceId: string, releaseId: string, name: string): Promise<ShotItem | undefined> {
    return (await getConsistent(WHAT, this.dynamo, this.table, keys.shot(workspaceId, releaseId, name))) as ShotItem | undefined;
  }

  async list(workspaceId: string, releaseId: string): Promise<ShotItem[]> {
    return (await queryAll(WHAT, this.dynamo, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspace(workspaceId).pk, ':prefix': prefixes.shotsOf(releaseId) },
      ConsistentRead: true,
    })) as unknown as ShotItem[];
  }

  /** The shots of one name in several releases (absent ones are left out). */
  async ofReleases(workspaceId: string, releaseIds: readonly string[], name: string): Promise<ShotItem[]> {
    return (await batchGetAll(
      WHAT,
      this.dynamo,
      this.table,
      releaseIds.map((releaseId) => keys.shot(workspaceId, releaseId, name)),
    )) as unknown as ShotItem[];
  }

  /** Queued, or running under a lapsed lease (its worker died) → running; undefined when replaced, finished or held by a live worker. */
  async claim(at: ShotAt, claim: { now: number; leaseUntil: number; startedAt: string }): Promise<ShotItem | undefined> {
    return (await updateIf(WHAT, this.dynamo, {
      TableName: this.table,
      Key: keys.shot(at.workspaceId, at.releaseId, at.name),
      UpdateExpression: 'SET #status = :running, leaseUntil = :lease, startedAt = :started ADD attempts :one',
      ConditionExpression: 'runId = :run AND (#status = :queued OR (#status = :running AND leaseUntil < :now))',
      ExpressionAttributeNames: NAMES,
      ExpressionAttributeValues: {
        ':run': at.runId,
        ':queued': 'queued',
        ':running': 'running',
        ':now': claim.now,
        ':lease': claim.leaseUntil,
        ':started': claim.startedAt,
        ':one': 1,
      },
      ReturnValues: 'ALL_NEW',
    })) as ShotItem | undefined;
  }

  /** Running → queued again, for another delivery of its message to claim at once. */
  async requeue(at: ShotAt): Promise<void> {
    await updateIf(WHAT, this.dynamo, {
      TableName: this.table,
      Key: keys.shot(at.workspaceId, at.releaseId, at.name),
      UpdateExpression: 'SET #status = :queued REMOVE leaseUntil',
      ConditionExpression: 'runId = :run AND #status = :running',
      ExpressionAttributeNames: NAMES,
      ExpressionAttributeValues: { ':run': at.runId, ':queued': 'queued', ':running': 'running' },
    });
  }

  /** Running → done with what it found; false when the run was replaced meanwhile. */
  async finishDone(at: ShotAt, finishedAt: string, result: ShotResult): Promise<boolean> {
    return this.finish(at, ['running'], { status: 'done', finishedAt, ...result });
  }

  /** Running (or, when the queue refused its message, queued) → failed with the error; false when the run was replaced. */
  async finishFailed(at: ShotAt, finishedAt: string, error: ShotFailure, from: readonly ShotStatus[] = ['running']): Promise<boolean> {
    return this.finish(at, from, { status: 'failed', finishedAt, error });
  }

  private async finish(at: ShotAt, from: readonly ShotStatus[], fields: Record<string, unknown>): Promise<boolean> {
    const set = Object.entries(fields).filter(([, value]) => value !== undefined);
    const names: Record<string, string> = { ...NAMES };
    const values: Record<string, unknown> = { ':run': at.runId };
    const assignments = set.map(([field, value], index) => {
      names[`#f${index}`] = field;
      values[`:v${index}`] = value;
      return `#f${index} = :v${index}`;
    });
    from.forEach((status, index) => {
      values[`:from${index}`] = status;
    });
    const updated = await updateIf(WHAT, this.dynamo, {
      TableName: this.table,
      Key: keys.shot(at.workspaceId, at.releaseId, at.name),
      UpdateExpression: `SET ${assignments.join(', ')} REMOVE leaseUntil`,
      ConditionExpression: `runId = :run AND #status IN (${from.map((_, index) => `:from${index}`).join(', ')})`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
    return updated !== undefined;
  }
}

export interface ShotAt {
  workspaceId: string;
  releaseId: string;
  name: string;
  runId: string;
}
