/** Creates what the CDK stack would (shared/resources.ts, the editor build) when it is missing locally. */
import { CreateTableCommand, DescribeTableCommand, ResourceNotFoundException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, PutBucketCorsCommand, type S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUCKETS, QUEUES, TABLES, type BucketDef, type QueueDef, type TableDef } from '#shared/resources.ts';
import type { Endpoints } from '#infra/local/backends.ts';
import { buildEditor } from '#editor/build.ts';

const TABLE_ACTIVE_TIMEOUT_MS = 30_000;

/** Waits for ACTIVE: a table still CREATING answers every item request with ResourceNotFoundException. */
export async function ensureTable(client: DynamoDBClient, name: string, def: TableDef): Promise<void> {
  const status = await tableStatus(client, name);
  if (status === undefined) await createTable(client, name, def);
  if (status !== 'ACTIVE') await activeTable(client, name);
}

async function tableStatus(client: DynamoDBClient, name: string): Promise<string | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: name }))).Table?.TableStatus;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

async function activeTable(client: DynamoDBClient, name: string): Promise<void> {
  const deadline = Date.now() + TABLE_ACTIVE_TIMEOUT_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 500)) {
    const status = await tableStatus(client, name);
    if (status === 'ACTIVE') return;
    if (Date.now() > deadline) throw new Error(`Table ${name} is ${status ?? 'missing'}, not ACTIVE, ${TABLE_ACTIVE_TIMEOUT_MS / 1000} s after it was created`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

async function createTable(client: DynamoDBClient, name: string, def: TableDef): Promise<void> {
  const attributes = new Set<string>([def.partitionKey, ...(def.sortKey ? [def.sortKey] : [])]);
  for (const index of def.indexes) {
    attributes.add(index.partitionKey);
    if (index.sortKey) attributes.add(index.sortKey);
  }
  const keySchema = (pk: string, sk?: string) => [
    { AttributeName: pk, KeyType: 'HASH' as const },
    ...(sk ? [{ AttributeName: sk, KeyType: 'RANGE' as const }] : []),
  ];
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
      KeySchema: keySchema(def.partitionKey, def.sortKey),
      GlobalSecondaryIndexes:
        def.indexes.length > 0
          ? def.indexes.map((index) => ({
              IndexName: index.name,
              KeySchema: keySchema(index.partitionKey, index.sortKey),
              Projection: { ProjectionType: 'ALL' },
            }))
          : undefined,
    }),
  );
  // TTL is declared in the CDK stack only: dynalite has no UpdateTimeToLive, and readers treat an expired item as absent anyway.
}

export async function ensureBucket(client: S3Client, name: string, def: BucketDef, corsOrigins: readonly string[]): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: name }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket: name }));
  }
  if (def.browserCors) {
    await client.send(
      new PutBucketCorsCommand({
        Bucket: name,
        CORSConfiguration: {
          CORSRules: [
            {
              AllowedMethods: ['PUT', 'GET', 'HEAD'],
              AllowedOrigins: corsOrigins.length > 0 ? [...corsOrigins] : ['*'],
              AllowedHeaders: ['*'],
              ExposeHeaders: ['ETag'],
              MaxAgeSeconds: 600,
            },
          ],
        },
      }),
    );
  }
}

export async function ensureQueue(client: SQSClient, name: string, def: QueueDef): Promise<string> {
  const dlq = await client.send(
    new CreateQueueCommand({
      QueueName: def.deadLetter.localName,
      Attributes: { MessageRetentionPeriod: String(def.deadLetter.retentionDays * 86_400) },
    }),
  );
  const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
  const queue = await client.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: String(def.visibilityTimeoutSeconds),
        ...(def.retentionSeconds === undefined ? {} : { MessageRetentionPeriod: String(def.retentionSeconds) }),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount: def.deadLetter.maxReceiveCount }),
      },
    }),
  );
  return queue.QueueUrl!;
}

export interface LocalQueue {
  name: keyof typeof QUEUES;
  url: string;
  arn: string;
}

/** Leaves AWS backends alone: a queue there must be named by its variable. */
export async function provisionResources(
  clients: { dynamo: DynamoDBClient; s3: S3Client; sqs: SQSClient },
  endpoints: Endpoints,
  env: NodeJS.ProcessEnv,
  handlerEnv: Record<string, string>,
): Promise<LocalQueue[]> {
  const { dynamo, s3, sqs } = clients;
  const queues: LocalQueue[] = [];
  if (endpoints.dynamodb) for (const def of Object.values(TABLES)) await ensureTable(dynamo, handlerEnv[def.env]!, def);
  if (endpoints.s3) {
    // Any origin, as in the stack: the editor PUTs exports straight to the bucket from whatever host serves it.
    for (const def of Object.values(BUCKETS)) await ensureBucket(s3, handlerEnv[def.env]!, def, []);
  }
  for (const [name, def] of Object.entries(QUEUES) as [keyof typeof QUEUES, (typeof QUEUES)[keyof typeof QUEUES]][]) {
    const queueUrl = env[def.env] ?? (endpoints.sqs ? await ensureQueue(sqs, def.localName, def) : undefined);
    if (!queueUrl) throw new Error(`${def.env} is required when SQS_ENDPOINT=aws`);
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
    handlerEnv[def.env] = queueUrl;
    queues.push({ name, url: queueUrl, arn: Attributes?.QueueArn ?? '' });
  }
  return queues;
}

/** EDITOR_ASSETS_DIR, or a build made as the stack's bundling makes it, removed on stop. */
export async function editorAssets(env: NodeJS.ProcessEnv, onStop: (stop: () => Promise<void>) => void): Promise<string> {
  if (env.EDITOR_ASSETS_DIR) return env.EDITOR_ASSETS_DIR;
  const built = await mkdtemp(join(tmpdir(), 'easel-editor-'));
  onStop(() => rm(built, { recursive: true, force: true }));
  await buildEditor(built);
  return built;
}
