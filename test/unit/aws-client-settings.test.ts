/**
 * The SDK clients as shared/aws/ builds them take every setting from Easel's configuration: their
 * first request reads no AWS config file, and one that is present changes nothing.
 */
import { createHash } from 'node:crypto';
import fsPromises from 'node:fs/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AwsClientSettings } from '#shared/aws/settings.ts';
import { SDK_LIMITS } from '#shared/config.ts';
import { LOCAL_CREDENTIALS } from '../support/aws-settings.ts';

// Before the SDK loads: it takes readFile from node:fs/promises once, as it loads.
const readFile = vi.spyOn(fsPromises, 'readFile');
const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
const { HeadObjectCommand, PutObjectCommand } = await import('@aws-sdk/client-s3');
const { SendMessageCommand } = await import('@aws-sdk/client-sqs');
const { GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
const { dynamoDocumentClient } = await import('#shared/aws/dynamodb.ts');
const { s3Client } = await import('#shared/aws/s3.ts');
const { sqsClient } = await import('#shared/aws/sqs.ts');
const { secretsManagerClient } = await import('#shared/aws/secrets-manager.ts');

// Each line would show in the requests if the SDK read it.
const folder = mkdtempSync(join(tmpdir(), 'easel-aws-config-'));
const CONFIG_FILE = join(folder, 'config');
const CREDENTIALS_FILE = join(folder, 'credentials');
writeFileSync(
  CONFIG_FILE,
  '[default]\nuse_fips_endpoint = true\nuse_dualstack_endpoint = true\nsdk_ua_app_id = from-config-file\nendpoint_url = http://127.0.0.1:9\n',
);
writeFileSync(CREDENTIALS_FILE, '[default]\naws_access_key_id = from-credentials-file\naws_secret_access_key = from-credentials-file\n');
vi.stubEnv('AWS_CONFIG_FILE', CONFIG_FILE);
vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', CREDENTIALS_FILE);
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(folder, { recursive: true, force: true });
});

interface Seen {
  hostname: string;
  headers: Record<string, string>;
}

/** Answers `client`'s requests with `body` instead of sending them; returns what it was asked. */
function answerHere(client: { config: object }, body: string): Seen[] {
  const seen: Seen[] = [];
  (client.config as { requestHandler: unknown }).requestHandler = {
    handle: async (request: Seen) => {
      seen.push(request);
      return { response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: Readable.from([Buffer.from(body)]) } };
    },
  };
  return seen;
}

/** To AWS itself: no endpoint. */
const settings: AwsClientSettings = { region: 'us-east-1', credentials: LOCAL_CREDENTIALS, ...SDK_LIMITS };
const MESSAGE = 'hello';

describe('the SDK clients of shared/aws/', () => {
  it('send their first request to the endpoint of their region, without reading an AWS config file', async () => {
    // Prepare
    const dynamo = dynamoDocumentClient(settings);
    const s3 = s3Client(settings);
    const sqs = sqsClient(settings);
    const secrets = secretsManagerClient(settings);
    const requests = [
      answerHere(dynamo, '{}'),
      answerHere(s3, ''),
      answerHere(sqs, JSON.stringify({ MessageId: 'm', MD5OfMessageBody: createHash('md5').update(MESSAGE).digest('hex') })),
      answerHere(secrets, '{}'),
    ];

    // Act
    await dynamo.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }));
    await s3.send(new HeadObjectCommand({ Bucket: 'easel-assets', Key: 'k' }));
    const presigned = new URL(await getSignedUrl(s3, new PutObjectCommand({ Bucket: 'easel-assets', Key: 'k' }), { expiresIn: 60 }));
    await sqs.send(new SendMessageCommand({ QueueUrl: 'https://sqs.us-east-1.amazonaws.com/000000000000/q', MessageBody: MESSAGE }));
    await secrets.send(new GetSecretValueCommand({ SecretId: 's' }));

    // Assess
    expect(requests.map((seen) => seen.map((request) => request.hostname))).toEqual([
      ['dynamodb.us-east-1.amazonaws.com'],
      ['easel-assets.s3.us-east-1.amazonaws.com'],
      ['sqs.us-east-1.amazonaws.com'],
      ['secretsmanager.us-east-1.amazonaws.com'],
    ]);
    expect(presigned.hostname).toBe('easel-assets.s3.us-east-1.amazonaws.com');
    for (const seen of requests) expect(JSON.stringify(seen[0]!.headers)).not.toContain('from-config-file');
    const filesRead = readFile.mock.calls.map(([path]) => String(path)).filter((path) => path.startsWith(folder));
    expect(filesRead).toEqual([]);
  });
});
