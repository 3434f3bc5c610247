/**
 * The local runtime: one Node process that serves every route of the table by calling the very
 * handler modules Lambda runs, with DynamoDB, S3 and SQS embedded (or pointed elsewhere).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { STATUS_CODES, createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { resetConfig } from '#shared/config.ts';
import { toEnvelope } from '#shared/http/envelope.ts';
import { PayloadTooLargeError, UnreadableRequestError } from '#shared/errors.ts';
import type { HttpHandler } from '#shared/http/handler.ts';
import { matchRoute } from '#shared/http/match.ts';
import type { LambdaResult } from '#shared/route-types.ts';
import { shutdown } from '#shared/lifecycle.ts';
import { log, serializeError } from '#shared/log.ts';
import { BUCKETS, QUEUES, TABLES } from '#shared/resources.ts';
import { FALLBACK, ROUTE_LIST } from '#shared/routes.ts';
import { allowStreaming, streamOf } from '#shared/http/reply.ts';
import { requestTarget, toContext, toEvent, writeResult } from '#infra/local/apigw.ts';
import { startDynamo, startEmbedded, startS3, startSqs, type Backend, type EmbeddedBackend } from '#infra/local/backends.ts';
import { ensureBucket, ensureQueue, ensureTable } from '#infra/local/provision.ts';
import { startPoller, type SqsWorker } from '#infra/local/sqs-poller.ts';
import { listenOn, portFrom } from '#infra/local/ports.ts';
import { buildEditor } from '#editor/build.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** Environment variables of individual routes, handed to the handlers as the stack would set them. */
const ROUTE_SETTING = /^(TWEET_|MEDIA_PROXY_|UNSAFE_TEST_|CAPTURE_|CHROMIUM_|BROWSER_|CACHE_TTL_|AUTH_CACHE_|EDITOR_API_)[A-Z_]+$/;
/** Lambda's synchronous request payload limit; API Gateway refuses larger bodies before our code runs. */
export const MAX_REQUEST_BYTES = 6 * 1024 * 1024;

/** One request and the answer the local server gave it, for observers (the tests' contract check). */
export interface Exchange {
  method: string;
  /** Path of the request, without the query. */
  path: string;
  status: number;
  headers: Record<string, string>;
  /** The body as sent; undefined for a streamed body, which is not held back to be observed. */
  body?: Buffer;
}

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

/** Reads a request body, keeping at most `limit + 1` bytes: enough to know it was over the limit. */
function readBody(req: IncomingMessage, limit: number): Promise<{ bytes: Buffer; tooLarge: boolean }> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      const room = limit + 1 - size;
      if (room > 0) chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, room));
      size += chunk.length;
    });
    req.on('end', () => resolvePromise({ bytes: Buffer.concat(chunks), tooLarge: size > limit }));
    req.on('error', reject);
  });
}

/**
 * Answers a request Node's HTTP parser refused (headers too large, malformed request line or
 * framing, a request that never finished) with the error envelope, then closes the connection:
 * after a framing error nothing more on it can be trusted.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, publicBaseUrl: () => string): void {
  if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'EPIPE') {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const hint =
    status === 431
      ? 'Send a shorter URL and fewer or shorter headers (at most 16 KB together).'
      : status === 408
        ? 'Send the whole request promptly.'
        : `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}): check the request line, the headers and that Content-Length matches the body.`;
  const envelope = toEnvelope(new UnreadableRequestError(status, hint, error), publicBaseUrl());
  const body = JSON.stringify(envelope.body);
  // The answer to a HEAD carries no body, even when the request could not be read whole.
  const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}

async function importHandler<T>(file: string): Promise<T> {
  const module = (await import(pathToFileURL(join(ROOT, file)).href)) as { handler?: T };
  if (typeof module.handler !== 'function') throw new Error(`${file} does not export a handler function`);
  return module.handler;
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

  let publicBaseUrl = env.PUBLIC_BASE_URL ?? 'http://127.0.0.1';
  try {
    // The HTTP port is bound first: the public base URL must be known before any handler loads.
    let dispatch: (req: IncomingMessage, res: import('node:http').ServerResponse) => void = (_req, res) => {
      res.writeHead(503).end();
    };
    const server: Server = createServer((req, res) => dispatch(req, res));
    // Node answers what it cannot parse with a bare status line; answer with the envelope instead.
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, () => publicBaseUrl));
    const httpPort = options.port ?? portFrom(env, 'PORT');
    await listenOn('PORT', httpPort, host, () =>
      new Promise<void>((resolvePromise, reject) => {
        server.once('error', reject);
        server.listen(httpPort, host, () => resolvePromise());
      }),
    );
    stoppers.push(
      () =>
        new Promise<void>((resolvePromise) => {
          server.close(() => resolvePromise());
          server.closeAllConnections();
        }),
    );
    const port = (server.address() as AddressInfo).port;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    publicBaseUrl = env.PUBLIC_BASE_URL ?? url;

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
    const queues: { name: keyof typeof QUEUES; url: string; arn: string }[] = [];
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
    // Load every handler now, as Lambda's cold start would, so a broken module fails at start-up.
    const handlers = new Map<string, HttpHandler>();
    for (const row of ROUTE_LIST) handlers.set(row.operationId, await importHandler<HttpHandler>(row.handler));
    const fallback = await importHandler<HttpHandler>(FALLBACK.handler);

    dispatch = (req, res) => {
      void (async () => {
        const method = (req.method ?? 'GET').toUpperCase();
        let result: LambdaResult;
        try {
          const { bytes: body, tooLarge } = await readBody(req, MAX_REQUEST_BYTES);
          const match = matchRoute(method, requestTarget(req.url).path);
          const row = match.kind === 'route' ? match.route : undefined;
          // Past Lambda's limit a route that takes a body still answers, as it does to any body over
          // its own (smaller) limit: counted by its rate limit and carrying its headers. In the cloud
          // API Gateway refuses such a request before any function runs.
          if (tooLarge && !row?.body) {
            const envelope = toEnvelope(new PayloadTooLargeError(MAX_REQUEST_BYTES), handlerEnv.PUBLIC_BASE_URL!);
            result = { statusCode: envelope.status, headers: { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' }, body: JSON.stringify(envelope.body) };
          } else {
            const event = toEvent({
              req,
              body,
              routeKey: row ? `${row.method} ${row.path}` : '$default',
              pathParameters: match.kind === 'route' && Object.keys(match.params).length > 0 ? match.params : undefined,
            });
            const handler = row ? handlers.get(row.operationId)! : fallback;
            const context = toContext(`easel-${row?.operationId ?? 'fallback'}`, row?.timeout ?? FALLBACK.timeout);
            result = await handler(event, streaming ? allowStreaming(context) : context);
          }
        } catch (error) {
          log.error('local dispatch failed', { error: serializeError(error) });
          const envelope = toEnvelope(error, handlerEnv.PUBLIC_BASE_URL!);
          result = { statusCode: envelope.status, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(envelope.body) };
        }
        if (options.observe) {
          const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));
          const body = streamOf(result) ? undefined : Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
          options.observe({ method, path: requestTarget(req.url).path, status: result.statusCode ?? 200, headers, body });
        }
        if (!res.destroyed) writeResult(res, result, method);
      })().catch((error: unknown) => {
        // Nothing may leave a request unanswered or end the process: cut the connection instead.
        log.error('local dispatch failed after the answer was made', { error: serializeError(error) });
        res.destroy();
      });
    };

    if (options.workers ?? true) {
      for (const queue of queues) {
        const def = QUEUES[queue.name];
        const worker = await importHandler<SqsWorker>(def.worker.handler);
        const poller = startPoller({
          client: sqs,
          queueUrl: queue.url,
          queueArn: queue.arn,
          region,
          batchSize: def.worker.batchSize,
          timeoutSeconds: def.worker.timeout,
          functionName: `easel-${queue.name}-worker`,
          worker,
        });
        stoppers.push(() => poller.stop());
      }
    }

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
