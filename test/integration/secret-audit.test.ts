/**
 * The secret audit every test runtime runs when it stops (test/support/secret-audit.ts) must be
 * able to fail: secrets planted in each place it searches are all reported, by place.
 */
import { describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { generateApiKey } from '#shared/identity/credentials.ts';
import { log } from '#shared/log.ts';
import * as admin from '#shared/services/identity-admin.ts';
import { connect } from '#infra/admin/connection.ts';
import { startTestRuntime } from '../support/local.ts';

describe('the secret audit of test runtimes', () => {
  it('fails the stop and names every place a planted secret was found', async () => {
    // Prepare: real credentials of the runtime's table, and the runtime's internal secret
    const runtime = await startTestRuntime({ workers: false });
    const db = connect(runtime.env);
    const deps = { store: db.store };
    await admin.createUser(deps, { email: 'leak@example.com', name: 'Leak' });
    const { organization } = await admin.createOrganization(deps, { name: 'Leaky', plan: 'pro', ownerUserId: 'leak@example.com' });
    const { key } = await admin.issueApiKey(deps, { organizationId: organization.organizationId, name: 'leaked' });
    const { token } = await admin.createSession(deps, { user: 'leak@example.com' });
    db.close();
    const internalSecret = runtime.env.INTERNAL_SECRET!;
    const credentials = { accessKeyId: 'x', secretAccessKey: 'x' };
    const region = 'us-east-1';
    const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({ region, endpoint: runtime.env.DYNAMODB_ENDPOINT, credentials }));
    const s3 = new S3Client({ region, endpoint: runtime.env.S3_ENDPOINT, forcePathStyle: true, credentials });
    const sqs = new SQSClient({ region, endpoint: runtime.env.SQS_ENDPOINT, credentials });
    // A string shaped like a key that no one issued: a client may store that in its own data.
    const lookalike = generateApiKey();
    await dynamo.send(new PutCommand({ TableName: runtime.env.WORKSPACE_TABLE, Item: { pk: 'PLANT', sk: 'KEY', note: `key ${key}`, other: lookalike } }));
    await s3.send(new PutObjectCommand({ Bucket: runtime.env.ASSETS_BUCKET, Key: 'plant/session.txt', Body: `session ${token}` }));
    const { MessageId } = await sqs.send(
      new SendMessageCommand({ QueueUrl: runtime.env.DELETION_QUEUE_URL, MessageBody: JSON.stringify({ secret: internalSecret }) }),
    );
    log.debug('planted', { detail: `a client sent ${lookalike}` });
    for (const client of [dynamo, s3, sqs]) client.destroy();

    // Act
    const stopped = await runtime.dispose().then(
      () => undefined,
      (error: unknown) => error as Error,
    );

    // Assess
    expect(stopped).toBeInstanceOf(Error);
    const reported = stopped!.message.split('\n').slice(1).sort();
    expect(reported).toEqual(
      [
        `  - DynamoDB ${runtime.env.WORKSPACE_TABLE} item {"pk":"PLANT","sk":"KEY"}: API key ${key.slice(0, 12)}…`,
        `  - S3 object ${runtime.env.ASSETS_BUCKET}/plant/session.txt: session token ${token.slice(0, 12)}…`,
        `  - SQS queue easel-deletion message ${MessageId}: the internal secret`,
        expect.stringMatching(new RegExp(`^  - log line \\d+ \\(msg "planted"\\): API key ${lookalike.slice(0, 12)}…$`)),
      ].sort(),
    );
    expect(stopped!.message).not.toContain(key);
    expect(stopped!.message).not.toContain(token);
    expect(stopped!.message).not.toContain(internalSecret);
  });
});
