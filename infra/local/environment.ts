/** The handlers' environment as the stack would set it, and the runtime's own SDK clients, configured alike. */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { BUCKETS, TABLES } from '#shared/resources.ts';
import type { Endpoints } from '#infra/local/backends.ts';

const ROUTE_SETTING =
  /^(TWEET_|MEDIA_PROXY_|UNSAFE_TEST_|LOCAL_CAPTURE_|CAPTURE_|CHROMIUM_|BROWSER_|CACHE_TTL_|AUTH_CACHE_|EDITOR_API_|SDK_|EMAIL_|WEBAUTHN_|ALLOW_SIGN_|SESSION_|SOURCE_SECRET_)[A-Z_]+$/;

/** Where sign-in mail goes locally, unless EMAIL_FROM sends it through SES: `npm start` prints it, `npm run admin -- outbox` lists it. */
export const OUTBOX_FILE = 'outbox.jsonl';

/** `fonts` is the capture fonts' folder (infra/assets/fonts.ts), whose fonts.conf Chromium reads as on Lambda. */
export function handlerEnvironment(
  env: NodeJS.ProcessEnv,
  runtime: { url: string; endpoints: Endpoints; anyEmbedded: boolean; fonts: string; dataDir: string },
): Record<string, string> {
  const { dynamodb, s3, sqs } = runtime.endpoints;
  const handlerEnv: Record<string, string> = {
    PUBLIC_BASE_URL: env.PUBLIC_BASE_URL ?? runtime.url,
    EDITOR_ORIGINS: env.EDITOR_ORIGINS ?? 'http://localhost:5173,http://127.0.0.1:5173',
    AWS_REGION: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    FONTCONFIG_PATH: runtime.fonts,
  };
  if (runtime.anyEmbedded && !env.AWS_ACCESS_KEY_ID && !env.AWS_PROFILE) {
    // The embedded backends accept any credentials; the SDK only needs some to sign with.
    handlerEnv.AWS_ACCESS_KEY_ID = 'easel-local';
    handlerEnv.AWS_SECRET_ACCESS_KEY = 'easel-local';
  }
  for (const [name, value] of Object.entries(env)) if (value !== undefined && ROUTE_SETTING.test(name)) handlerEnv[name] = value;
  if (!env.EMAIL_FROM && !env.EMAIL_OUTBOX) handlerEnv.EMAIL_OUTBOX = join(runtime.dataDir, OUTBOX_FILE);
  // Source apps' secrets in the data folder (npm run admin -- put-secret), unless Secrets Manager is named.
  if (!handlerEnv.SOURCE_SECRET_PREFIX) handlerEnv.LOCAL_SECRETS_DIR = localSecretsDir(runtime.dataDir);
  // Fresh for each run unless given; main.ts prints it.
  if (!env.INTERNAL_SECRET_ARN) handlerEnv.INTERNAL_SECRET = env.INTERNAL_SECRET || randomBytes(32).toString('base64url');
  if (dynamodb) handlerEnv.DYNAMODB_ENDPOINT = dynamodb;
  if (s3) handlerEnv.S3_ENDPOINT = s3;
  if (sqs) handlerEnv.SQS_ENDPOINT = sqs;
  for (const def of [...Object.values(TABLES), ...Object.values(BUCKETS)]) handlerEnv[def.env] = env[def.env] ?? def.localName;
  return handlerEnv;
}

/** Where the local runtime and `npm run admin -- put-secret` keep source apps' secrets. */
export const localSecretsDir = (dataDir: string) => join(dataDir, 'secrets');

/** The runtime's own clients, with the handlers' region and credentials. */
export function sdkClients(handlerEnv: Record<string, string>, endpoints: Endpoints): { region: string; dynamo: DynamoDBClient; s3: S3Client; sqs: SQSClient } {
  const region = handlerEnv.AWS_REGION!;
  const credentials = handlerEnv.AWS_ACCESS_KEY_ID
    ? { accessKeyId: handlerEnv.AWS_ACCESS_KEY_ID, secretAccessKey: handlerEnv.AWS_SECRET_ACCESS_KEY! }
    : undefined;
  return {
    region,
    dynamo: new DynamoDBClient({ region, endpoint: endpoints.dynamodb, credentials }),
    s3: new S3Client({ region, endpoint: endpoints.s3, forcePathStyle: endpoints.s3 !== undefined, credentials }),
    sqs: new SQSClient({ region, endpoint: endpoints.sqs, credentials }),
  };
}
