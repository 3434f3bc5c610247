/**
 * The local runtime: one Node process that serves every route of the table by calling the very
 * handler modules Lambda runs, with DynamoDB, S3 and SQS embedded (or pointed elsewhere).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { resetConfig } from '#shared/config.ts';
import { shutdown } from '#shared/lifecycle.ts';
import { log, serializeError } from '#shared/log.ts';
import { BUCKETS, QUEUES, TABLES } from '#shared/resources.ts';
import { startDynamo, startEmbedded, startS3, startSqs, type Backend, type EmbeddedBackend } from '#infra/local/backends.ts';
import { loadHttpHandlers, startWorkers, type LocalQueue } from '#infra/local/handlers.ts';
import { ensureBucket, ensureQueue, ensureTable } from '#infra/local/provision.ts';
import { listenOn, portFrom } from '#infra/local/ports.ts';
import { startServer, type Exchange } from '#infra/local/server.ts';
import { buildEditor } from '#editor/build.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** Environment variables of individual routes, handed to the handlers as the stack would set them. */
const ROUTE_SETTING = /^(TWEET_|MEDIA_PROXY_|UNSAFE_TEST_|CAPTURE_|CHROMIUM_|BROWSER_|CACHE_TTL_|AUTH_CACHE_|EDITOR_API_)[A-Z_]+$/;
export interface LocalOptions {
  /** Sees every answer before it is written (tests check them against the published contract). */
  observe?: (exchange: Exchange) => void;
  /** HTTP port (0 picks a free one). Default: PORT or 3000 (infra/local/ports.ts). */
  port?: number;
  /** Interface to bind. Default: HOST or 127.0.0.1. */
  host?: string;
  /** Where embedded backends keep their data. Default: EASEL_DATA_DIR or .easel-data. */
  dataDir?: string;
  /** Wipe the data folder first. Default: EASEL_CLEAN=1. */
  clean?: boolean;
  /** Ports of the embedded backends (0 picks free ones). Default: DYNAMODB_PORT, S3_PORT, SQS_PORT or infra/local/ports.ts. */
  backendPorts?: { dynamodb?: number; s3?: number; sqs?: number };
  /** Run the queue workers. Default true. */
  workers?: boolean;
  /** Environment to read settings from and to extend for the handlers. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Pipe stream bodies (the media proxy) as they arrive. false buffers them as Lambda must,
   * within its 6 MB response limit, to try the deployed behaviour. Default: EASEL_LOCAL_STREAMING !== '0'.
   */
  streaming?: boolean;
}

export interface LocalRuntime {
  url: string;
  dataDir: string;
  backends: { name: string; endpoint: string }[];
  /** The embedded backends, which can be stopped and started again while the runtime runs (fault tests). */
  embedded: { dynamodb?: EmbeddedBackend; s3?: EmbeddedBackend; sqs?: EmbeddedBackend };
  /** The configuration the handlers run with (table names, endpoints, base URL…). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts backends, provisions resources, loads every handler and serves HTTP. */
export async function startLocal(options: LocalOptions = {}): Promise<LocalRuntime> {
  const env = options.env ?? process.env;
  const host = options.host ?? env.HOST ?? '127.0.0.1';
  const dataDir = resolve(options.dataDir ?? env.EASEL_DATA_DIR ?? join(ROOT, '.easel-data'));
  const streaming = options.streaming ?? env.EASEL_LOCAL_STREAMING !== '0';
  if (options.clean ?? env.EASEL_CLEAN === '1') await rm(dataDir, { recursive: true, force: true });

  const stoppers: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stoppers.reverse()) await stop().catch((error) => log.warn('stop failed', { error: serializeError(error) }));
    stoppers.length = 0;
  };

  try {
    // The HTTP port is bound first: the public base URL must be known before any handler loads.
    const server = await startServer({ host, port: options.port ?? portFrom(env, 'PORT'), configuredBaseUrl: env.PUBLIC_BASE_URL });
    stoppers.push(() => server.stop());
    const { url } = server;

    // Each backend is embedded unless its endpoint is given ('aws' means the SDK's default).
    const backends: EmbeddedBackend[] = [];
    const embedded: LocalRuntime['embedded'] = {};
    const endpointFor = async (
      name: 'DYNAMODB' | 'S3' | 'SQS',
      start: (port: number) => Promise<Backend>,
      port: number,
    ): Promise<string | undefined> => {
      const given = env[`${name}_ENDPOINT`];
      if (given === 'aws') return undefined;
      if (given) return given;
      const backend = await listenOn(`${name}_PORT`, port, '127.0.0.1', () => startEmbedded(start, port));
      backends.push(backend);
      embedded[name.toLowerCase() as keyof LocalRuntime['embedded']] = backend;
      stoppers.push(() => backend.stop());
      return backend.endpoint;
    };
    const ports = options.backendPorts ?? {};
    const dynamoEndpoint = await endpointFor('DYNAMODB', (port) => startDynamo(dataDir, port), ports.dynamodb ?? portFrom(env, 'DYNAMODB_PORT'));
    const s3Endpoint = await endpointFor('S3', (port) => startS3(dataDir, port), ports.s3 ?? portFrom(env, 'S3_PORT'));
    const sqsEndpoint = await endpointFor('SQS', (port) => startSqs(dataDir, port), ports.sqs ?? portFrom(env, 'SQS_PORT'));

    const handlerEnv: Record<string, string> = {
      PUBLIC_BASE_URL: env.PUBLIC_BASE_URL ?? url,
      EDITOR_ORIGINS: env.EDITOR_ORIGINS ?? 'http://localhost:5173,http://127.0.0.1:5173',
      AWS_REGION: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    };
    if (backends.length > 0 && !env.AWS_ACCESS_KEY_ID && !env.AWS_PROFILE) {
      // The embedded backends accept any credentials; the SDK only needs some to sign with.
      handlerEnv.AWS_ACCESS_KEY_ID = 'easel-local';
      handlerEnv.AWS_SECRET_ACCESS_KEY = 'easel-local';
    }
    // Route settings (upstream URLs, limits, test-only opt-ins) pass through from the given environment.
    for (const [name, value] of Object.entries(env)) if (value !== undefined && ROUTE_SETTING.test(name)) handlerEnv[name] = value;
    // The maintainers' secret of the internal routes: given, or fresh for this run (main.ts prints it).
    if (!env.INTERNAL_SECRET_ARN) handlerEnv.INTERNAL_SECRET = env.INTERNAL_SECRET || randomBytes(32).toString('base64url');
    if (dynamoEndpoint) handlerEnv.DYNAMODB_ENDPOINT = dynamoEndpoint;
    if (s3Endpoint) handlerEnv.S3_ENDPOINT = s3Endpoint;
    if (sqsEndpoint) handlerEnv.SQS_ENDPOINT = sqsEndpoint;
    for (const def of [...Object.values(TABLES), ...Object.values(BUCKETS)]) handlerEnv[def.env] = env[def.env] ?? def.localName;
    Object.assign(process.env, handlerEnv);

    const region = handlerEnv.AWS_REGION!;
    const credentials = handlerEnv.AWS_ACCESS_KEY_ID
      ? { accessKeyId: handlerEnv.AWS_ACCESS_KEY_ID, secretAccessKey: handlerEnv.AWS_SECRET_ACCESS_KEY! }
      : undefined;
    const dynamo = new DynamoDBClient({ region, endpoint: dynamoEndpoint, credentials });
    const s3 = new S3Client({ region, endpoint: s3Endpoint, forcePathStyle: s3Endpoint !== undefined, credentials });
    const sqs = new SQSClient({ region, endpoint: sqsEndpoint, credentials });
    stoppers.push(async () => [dynamo, s3, sqs].forEach((client) => client.destroy()));

    // Resources already deployed by the stack are left alone when a backend points at AWS.
    const queues: LocalQueue[] = [];
    if (dynamoEndpoint) for (const def of Object.values(TABLES)) await ensureTable(dynamo, handlerEnv[def.env]!, def);
    if (s3Endpoint) {
      // Any origin, as the stack's bucket: a presigned URL is itself the credential, and the editor
      // this server serves (at whatever host name it is opened) PUTs saved exports straight to it.
      for (const def of Object.values(BUCKETS)) await ensureBucket(s3, handlerEnv[def.env]!, def, []);
    }
    for (const [name, def] of Object.entries(QUEUES) as [keyof typeof QUEUES, (typeof QUEUES)[keyof typeof QUEUES]][]) {
      const queueUrl = env[def.env] ?? (sqsEndpoint ? await ensureQueue(sqs, def.localName, def) : undefined);
      if (!queueUrl) throw new Error(`${def.env} is required when SQS_ENDPOINT=aws`);
      const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
      handlerEnv[def.env] = queueUrl;
      queues.push({ name, url: queueUrl, arn: Attributes?.QueueArn ?? '' });
    }
    // The editor page's files, built as the stack's bundling builds them, unless a build is given.
    let editorDir = env.EDITOR_ASSETS_DIR;
    if (!editorDir) {
      const built = await mkdtemp(join(tmpdir(), 'easel-editor-'));
      stoppers.push(() => rm(built, { recursive: true, force: true }));
      await buildEditor(built);
      editorDir = built;
    }
    handlerEnv.EDITOR_ASSETS_DIR = editorDir;
    Object.assign(process.env, handlerEnv);
    resetConfig();

    // Whatever the handlers started (the capture browser) stops with the runtime.
    stoppers.push(() => shutdown());
    server.serve(await loadHttpHandlers(), { streaming, observe: options.observe });
    if (options.workers ?? true) await startWorkers(queues, { client: sqs, region }, (stop) => stoppers.push(stop));

    return {
      url,
      dataDir,
      backends: backends.map(({ name, endpoint }) => ({ name, endpoint })),
      embedded,
      env: handlerEnv,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
