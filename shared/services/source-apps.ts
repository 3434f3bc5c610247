import { randomUUID } from 'node:crypto';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SourceApp, SourceAppCreate } from '#shared/schemas/source-apps.ts';
import { guard } from '#shared/store/sdk-calls.ts';
import { keys } from '#shared/store/keys.ts';

export interface SourceAppDeps {
  dynamo: DynamoDBDocumentClient;
  table: string;
  now?: () => Date;
}

/** Registers a release-intake source app in the workspace. */
export async function createSourceApp(deps: SourceAppDeps, input: { workspaceId: string; body: SourceAppCreate }): Promise<SourceApp> {
  // The schema has already defaulted provider to generic.
  const app: SourceApp = { id: randomUUID(), ...input.body, createdAt: (deps.now?.() ?? new Date()).toISOString() };
  await guard('The source app store', () =>
    deps.dynamo.send(
      new PutCommand({
        TableName: deps.table,
        Item: { ...keys.sourceApp(input.workspaceId, app.id), ...app },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  return app;
}
