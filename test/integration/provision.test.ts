import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { DynamoDBClient, DescribeTableCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { afterEach, describe, expect, it } from 'vitest';
import { TABLES } from '#shared/resources.ts';
import { ensureTable } from '#infra/local/provision.ts';

const credentials = { accessKeyId: 'easel-local', secretAccessKey: 'easel-local' };
let server: Server | undefined;
let client: DynamoDBClient | undefined;

/** An in-memory dynalite whose new tables stay CREATING for `createTableMs`, as AWS's do for seconds. */
async function slowDynamo(createTableMs: number): Promise<DynamoDBClient> {
  server = dynalite({ createTableMs }) as Server;
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  client = new DynamoDBClient({ region: 'us-east-1', endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, credentials });
  return client;
}

afterEach(async () => {
  client?.destroy();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = client = undefined;
});

describe('ensureTable', () => {
  it('returns once a new table is ACTIVE, so the first write finds it', async () => {
    // Prepare
    const dynamo = await slowDynamo(300);

    // Act
    await ensureTable(dynamo, 'workspace', TABLES.workspace);

    // Assess
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: 'workspace' }));
    expect(Table?.TableStatus).toBe('ACTIVE');
    await expect(dynamo.send(new PutItemCommand({ TableName: 'workspace', Item: { pk: { S: 'A' }, sk: { S: 'B' } } }))).resolves.toBeDefined();
  });

  it('leaves an existing table as it is', async () => {
    // Prepare
    const dynamo = await slowDynamo(0);
    await ensureTable(dynamo, 'workspace', TABLES.workspace);
    await dynamo.send(new PutItemCommand({ TableName: 'workspace', Item: { pk: { S: 'A' }, sk: { S: 'B' } } }));

    // Act
    await ensureTable(dynamo, 'workspace', TABLES.workspace);

    // Assess
    const { Item } = await dynamo.send(new GetItemCommand({ TableName: 'workspace', Key: { pk: { S: 'A' }, sk: { S: 'B' } } }));
    expect(Item).toEqual({ pk: { S: 'A' }, sk: { S: 'B' } });
  });
});
