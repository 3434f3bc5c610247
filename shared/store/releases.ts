/** Releases, the Idempotency-Key claims of their creation and the intake's claims of external releases, in the workspace table. */
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Release } from '#shared/schemas/releases.ts';
import { keys, prefixes } from '#shared/store/keys.ts';
import { getConsistent, putOrGet, updateIf } from '#shared/store/dynamodb-calls.ts';
import { schemaFields } from '#shared/store/item-fields.ts';
import { guard } from '#shared/store/outage.ts';

const WHAT = 'The release store';

const toRelease = /* @__PURE__ */ schemaFields<Release>(Release);

/** What an Idempotency-Key fixes: the body it was first used with, and the release it creates. */
export interface IdempotencyClaim {
  requestHash: string;
  releaseId: string;
  createdAt: string;
}

export class ReleaseStore {
  private readonly dynamo: DynamoDBDocumentClient;
  private readonly table: string;

  constructor(deps: { dynamo: DynamoDBDocumentClient; table: string }) {
    this.dynamo = deps.dynamo;
    this.table = deps.table;
  }

  async get(workspaceId: string, releaseId: string): Promise<Release | undefined> {
    const item = await getConsistent(WHAT, this.dynamo, this.table, keys.release(workspaceId, releaseId));
    return item ? toRelease(item) : undefined;
  }

  /** Newest first (release ids are UUIDv7), at most `limit`, after the release `after` if given. */
  async list(workspaceId: string, page: { limit: number; after?: string }): Promise<Release[]> {
    const { Items = [] } = await guard(WHAT, () =>
      this.dynamo.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.release(workspaceId, '').pk, ':prefix': prefixes.release },
          ScanIndexForward: false,
          Limit: page.limit,
          ...(page.after ? { ExclusiveStartKey: keys.release(workspaceId, page.after) } : {}),
        }),
      ),
    );
    return Items.map(toRelease);
  }

  /** Claims a key hash for this workspace, or returns the live claim (TTL deletion is lazy). */
  async claim(workspaceId: string, keyHash: string, claim: IdempotencyClaim, time: { epoch: number; expiresAt: number }): Promise<IdempotencyClaim> {
    const itemKey = keys.idempotency(workspaceId, 'release', keyHash);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const put = await putOrGet(WHAT, this.dynamo, {
        table: this.table,
        key: itemKey,
        item: { ...itemKey, ...claim, expiresAt: time.expiresAt },
        condition: 'attribute_not_exists(pk) OR expiresAt < :now',
        values: { ':now': time.epoch },
      });
      if (put.created) return claim;
      const { existing } = put;
      if (existing) return { requestHash: String(existing.requestHash), releaseId: String(existing.releaseId), createdAt: String(existing.createdAt) };
      // The claim expired and was removed between our two calls: claim again.
    }
    throw new Error('Idempotency claim did not settle');
  }

  /** Claims the release id of an external release, or reads the one claimed first: one conditional put, so racing deliveries agree. */
  async claimExternal(workspaceId: string, externalHash: string, claim: { releaseId: string }): Promise<{ releaseId: string }> {
    const itemKey = keys.intakeRelease(workspaceId, externalHash);
    const put = await putOrGet(WHAT, this.dynamo, { table: this.table, key: itemKey, item: { ...itemKey, ...claim } });
    if (put.created) return claim;
    if (!put.existing) throw new Error(`The intake claim ${externalHash} vanished`);
    return { releaseId: String(put.existing.releaseId) };
  }

  async externalClaim(workspaceId: string, externalHash: string): Promise<{ releaseId: string } | undefined> {
    const item = await getConsistent(WHAT, this.dynamo, this.table, keys.intakeRelease(workspaceId, externalHash));
    return item ? { releaseId: String(item.releaseId) } : undefined;
  }

  /** Rewrites a draft's text, source URLs and intake; undefined when the release is missing or no longer a draft. */
  async updateDraft(
    workspaceId: string,
    releaseId: string,
    draft: Pick<Release, 'title' | 'benefitStatement' | 'description' | 'sourceUrls' | 'intake'>,
  ): Promise<Release | undefined> {
    const set = ['title = :title', 'benefitStatement = :benefit', 'sourceUrls = :urls', 'intake = :intake'];
    const values: Record<string, unknown> = {
      ':title': draft.title,
      ':benefit': draft.benefitStatement,
      ':urls': draft.sourceUrls,
      ':intake': draft.intake,
      ':draft': 'draft',
    };
    if (draft.description !== undefined) {
      set.push('description = :description');
      values[':description'] = draft.description;
    }
    const updated = await updateIf(WHAT, this.dynamo, {
      TableName: this.table,
      Key: keys.release(workspaceId, releaseId),
      UpdateExpression: `SET ${set.join(', ')}${draft.description === undefined ? ' REMOVE description' : ''}`,
      ConditionExpression: '#state = :draft',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    });
    return updated ? toRelease(updated) : undefined;
  }

  /** Writes the release unless its id is taken; then the stored one is returned with created false. */
  async createOrGet(workspaceId: string, release: Release): Promise<{ created: boolean; release: Release }> {
    const itemKey = keys.release(workspaceId, release.id);
    const put = await putOrGet(WHAT, this.dynamo, { table: this.table, key: itemKey, item: { ...itemKey, ...release } });
    return put.created ? { created: true, release } : { created: false, release: toRelease(put.existing ?? release) };
  }
}
