/**
 * How the admin command line and the seed reach the workspace table: DYNAMODB_ENDPOINT or
 * DYNAMODB_PORT, else the `npm start` whose data folder records where it listens.
 */
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoDocumentClient } from '#shared/aws/dynamodb.ts';
import { TABLES } from '#shared/resources.ts';
import { identityStores, type IdentityStores } from '#shared/store/identity-stores.ts';
import { ENDPOINTS_FILE, dataDirFrom, isRunning, readEndpoints } from '#infra/local/endpoints-file.ts';

export interface Connection {
  store: IdentityStores;
  dynamo: DynamoDBDocumentClient;
  /** Where the table is, for messages: an endpoint URL or 'AWS'. */
  endpoint: string;
  table: string;
  /** What to check when the endpoint does not answer, naming the setting it came from. */
  unreachableHint: string;
  close(): void;
}

/** No table can be found from these settings; the message says which to set. */
export class ConnectionSettingError extends Error {
  /** `not_running` when no local server answers for the data folder, `missing_setting` otherwise. */
  readonly code: 'not_running' | 'missing_setting';
  constructor(code: ConnectionSettingError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

interface Target {
  /** undefined: the SDK's default, AWS. */
  endpoint: string | undefined;
  table: string | undefined;
  unreachableHint: string;
}

function target(env: NodeJS.ProcessEnv): Target {
  const given = env.DYNAMODB_ENDPOINT?.trim();
  const table = env[TABLES.workspace.env]?.trim() || undefined;
  if (given === 'aws') {
    if (!table)
      throw new ConnectionSettingError(
        'missing_setting',
        `${TABLES.workspace.env} is required with DYNAMODB_ENDPOINT=aws (the WorkspaceTableName output of the stack).`,
      );
    return { endpoint: undefined, table, unreachableHint: 'Check the AWS credentials and region (DYNAMODB_ENDPOINT=aws).' };
  }
  if (given) return { endpoint: given, table, unreachableHint: `Check DYNAMODB_ENDPOINT, or unset it to reach the \`npm start\` of this folder.` };
  // 0 lets `npm start` pick a port, which only its record knows.
  const port = env.DYNAMODB_PORT?.trim();
  if (port && port !== '0') {
    return {
      endpoint: `http://127.0.0.1:${port}`,
      table,
      unreachableHint: `Is \`npm start\` running with DYNAMODB_PORT=${port}? Unset DYNAMODB_PORT to find it through its data folder instead.`,
    };
  }
  const dataDir = dataDirFrom(env);
  const file = join(dataDir, ENDPOINTS_FILE);
  const recorded = readEndpoints(dataDir);
  const elsewhere = 'or, if it runs with another data folder, give this command the same EASEL_DATA_DIR (or DYNAMODB_PORT, or DYNAMODB_ENDPOINT).';
  if (!recorded)
    throw new ConnectionSettingError(
      'not_running',
      `No \`npm start\` runs on the data folder ${dataDir} (it has no ${ENDPOINTS_FILE}). Start one, ${elsewhere}`,
    );
  if (!isRunning(recorded.pid)) {
    throw new ConnectionSettingError(
      'not_running',
      `The \`npm start\` recorded in ${file} (pid ${recorded.pid}) is no longer running. Start it again, ${elsewhere}`,
    );
  }
  if (!recorded.dynamodb) {
    throw new ConnectionSettingError(
      'missing_setting',
      `The \`npm start\` of ${dataDir} uses DynamoDB on AWS: run this command with DYNAMODB_ENDPOINT=aws and ${TABLES.workspace.env}.`,
    );
  }
  return {
    endpoint: recorded.dynamodb,
    table: table ?? recorded.workspaceTable,
    unreachableHint: `\`npm start\` (pid ${recorded.pid}) recorded it in ${file} but does not answer there: restart it.`,
  };
}

/** @throws ConnectionSettingError when the settings lead to no table */
export function connect(env: NodeJS.ProcessEnv): Connection {
  const { endpoint, table = TABLES.workspace.localName, unreachableHint } = target(env);
  const region = env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || 'us-east-1';
  // The embedded backend accepts any credentials; the client only needs some to sign with.
  const credentials =
    endpoint !== undefined && !env.AWS_ACCESS_KEY_ID && !env.AWS_PROFILE ? { accessKeyId: 'easel-local', secretAccessKey: 'easel-local' } : undefined;
  const dynamo = dynamoDocumentClient({
    region,
    endpoint,
    credentials,
    maxAttempts: 2,
    connectionTimeoutMs: 1_000,
    requestTimeoutMs: 5_000,
    socketTimeoutMs: 5_000,
  });
  return {
    store: identityStores({ dynamo, table }),
    dynamo,
    endpoint: endpoint ?? `AWS (${region})`,
    table,
    unreachableHint,
    close: () => dynamo.destroy(),
  };
}
