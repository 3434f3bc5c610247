/** Release-intake source apps, in the workspace table, each with the address item its intake finds it by. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SourceApp } from '#shared/schemas/source-apps.ts';
import { keys, prefixes } from '#shared/store/keys.ts';
import { getConsistent, putIfAbsent, queryAll } from '#shared/store/dynamodb-calls.ts';
import { schemaFields } from '#shared/store/item-fields.ts';

const WHAT = 'The source app store';

const toSourceApp = /* @__PURE__ */ schemaFields<SourceApp>(SourceApp);

/** Whose an app is: what its intake address leads to. */
export interface SourceAppOwner {
  workspaceId: string;
  organizationId: string;
}

export class SourceAppStore {
  private readonly dynamo: DynamoDBDocumentClient;
  private readonly table: string;

  constructor(deps: { dynamo: DynamoDBDocumentClient; table: string }) {
    this.dynamo = deps.dynamo;
    this.table = deps.table;
  }

  async list(workspaceId: string): Promise<SourceApp[]> {
    const items = await queryAll(WHAT, this.dynamo, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspace(workspaceId).pk, ':prefix': prefixes.sourceApp },
    });
    return items.map(toSourceApp);
  }

  /** The address first (one without its app leads nowhere: locate answers undefined); the id is fresh, so a taken key is a bug. */
  async create(owner: SourceAppOwner, app: SourceApp): Promise<void> {
    const address = { ...keys.sourceAppAddress(app.id), sourceAppId: app.id, ...owner };
    const stored = { ...keys.sourceApp(owner.workspaceId, app.id), ...app };
    for (const item of [address, stored]) {
      if (!(await putIfAbsent(WHAT, this.dynamo, { table: this.table, item }))) throw new Error(`Source app id ${app.id} is already taken`);
    }
  }

  /** The app with this id and whose it is, read consistently (a delivery may follow its creation at once). */
  async locate(sourceAppId: string): Promise<(SourceAppOwner & { sourceApp: SourceApp }) | undefined> {
    const address = await getConsistent(WHAT, this.dynamo, this.table, keys.sourceAppAddress(sourceAppId));
    if (!address) return undefined;
    const owner = { workspaceId: String(address.workspaceId), organizationId: String(address.organizationId) };
    const item = await getConsistent(WHAT, this.dynamo, this.table, keys.sourceApp(owner.workspaceId, sourceAppId));
    return item ? { ...owner, sourceApp: toSourceApp(item) } : undefined;
  }
}
