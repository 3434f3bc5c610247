/**
 * How the admin command line (and the local seed) reaches the workspace table: the same
 * variables as `npm start`. Without DYNAMODB_ENDPOINT it talks to the embedded DynamoDB of a
 * running `npm start` (127.0.0.1:DYNAMODB_PORT, default 3571); DYNAMODB_ENDPOINT=aws means the
 * real service with the usual AWS credential chain, and then WORKSPACE_TABLE must name the
 * deployed stack's table.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoDocumentClient } from '#shared/aws/dynamodb.ts';
import { TABLES } from '#shared/resources.ts';
import { identityStores, type IdentityStores } from '#shared/store/identity-stores.ts';
import { DEFAULT_PORTS } from '#infra/local/ports.ts';

export interface Connection {
  store: IdentityStores;
  /** The document client under the stores. */
  dynamo: DynamoDBDocumentClient;
  /** Where the table is, for messages: an endpoint URL or 'AWS'. */
  endpoint: string;
  table: string;
  close(): void;
}

/** Connects to the workspace table described by an environment. */
export function connect(env: NodeJS.ProcessEnv): Connection {
  const given = env.DYNAMODB_ENDPOINT?.trim();
  const aws = given === 'aws';
  const endpoint = aws ? undefined : given || `http://127.0.0.1:${env.DYNAMODB_PORT?.trim() || DEFAULT_PORTS.DYNAMODB_PORT}`;
  const table = env[TABLES.workspace.env]?.trim() || (aws ? undefined : TABLES.workspace.localName);
  if (!table) throw new Error(`${TABLES.workspace.env} is required with DYNAMODB_ENDPOINT=aws (the WorkspaceTableName output of the stack).`);
  const region = env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || 'us-east-1';
  // The embedded backend accepts any credentials; the client only needs some to sign with.
  const credentials = !aws && !env.AWS_ACCESS_KEY_ID && !env.AWS_PROFILE ? { accessKeyId: 'easel-local', secretAccessKey: 'easel-local' } : undefined;
  const dynamo = dynamoDocumentClient({
    region,
    endpoint,
    credentials,
    maxAttempts: 2,
    connectionTimeoutMs: 1_000,
    requestTimeoutMs: 5_000,
    socketTimeoutMs: 5_000,
  });
  return { store: identityStores({ dynamo, table }), dynamo, endpoint: endpoint ?? `AWS (${region})`, table, close: () => dynamo.destroy() };
}
