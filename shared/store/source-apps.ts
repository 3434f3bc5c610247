/** Release-intake source apps, in the workspace table. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SourceApp } from '#shared/schemas/source-apps.ts';
import { keys, prefixes } from '#shared/store/keys.ts';
import { putIfAbsent, queryAll } from '#shared/store/dynamodb-calls.ts';

export class SourceAppStore {
  private readonly dynamo: DynamoDBDocumentClient;
  private readonly table: string;

  constructor(deps: { dynamo: DynamoDBDocumentClient; table: string }) {
    this.dynamo = deps.dynamo;
    this.table = deps.table;
  }

  /** Every source app of the workspace. */
  async list(workspaceId: string): Promise<SourceApp[]> {
    return (await queryAll('The source app store', this.dynamo, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspace(workspaceId).pk, ':prefix': prefixes.sourceApp },
    })) as unknown as SourceApp[];
  }

  /** Writes a new source app; its id is fresh, so a taken key is a bug, not a race. */
  async create(workspaceId: string, app: SourceApp): Promise<void> {
    if (!(await putIfAbsent('The source app store', this.dynamo, { table: this.table, item: { ...keys.sourceApp(workspaceId, app.id), ...app } }))) {
      throw new Error(`Source app id ${app.id} is already taken`);
    }
  }
}
