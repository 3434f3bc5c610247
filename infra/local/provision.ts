/**
 * Creates the tables, buckets and queues of shared/resources.ts on a backend when they are
 * missing: the same definitions the CDK stack provisions in the cloud.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, PutBucketCorsCommand, type S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { BucketDef, QueueDef, TableDef } from '#shared/resources.ts';

export async function ensureTable(client: DynamoDBClient, name: string, def: TableDef): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
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
  // TTL is declared in the CDK stack only: dynalite has no UpdateTimeToLive, and readers treat
  // an expired item as absent anyway.
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

/** Creates the dead-letter queue, then the queue with its redrive policy; returns the queue URL. */
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
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount: def.deadLetter.maxReceiveCount }),
      },
    }),
  );
  return queue.QueueUrl!;
}
