/** Embedded stand-ins for DynamoDB, S3 and SQS on loopback, persisted in the data folder to survive a restart. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { buildApp } from 'fauxqs';
import { createRequire } from 'node:module';
import { listenOn } from '#infra/local/ports.ts';

export interface Backend {
  name: string;
  endpoint: string;
  stop(): Promise<void>;
}

/** Restartable on the same port and data, so tests can take a dependency away and bring it back. */
export interface EmbeddedBackend extends Backend {
  readonly port: number;
  readonly running: boolean;
  /** The data stays on disk. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startEmbedded(start: (port: number) => Promise<Backend>, port: number): Promise<EmbeddedBackend> {
  let current: Backend | undefined = await start(port);
  const { name, endpoint } = current;
  // Port 0 picks a free port once; restarts must reuse it.
  const fixedPort = Number(new URL(endpoint).port);
  let pending: Promise<void> = Promise.resolve();
  // Serialized, so a test cannot interleave start and stop.
  const serial = (step: () => Promise<void>) => (pending = pending.then(step, step));
  return {
    name,
    endpoint,
    port: fixedPort,
    get running() {
      return current !== undefined;
    },
    stop: () =>
      serial(async () => {
        const running = current;
        current = undefined;
        await running?.stop();
      }),
    start: () =>
      serial(async () => {
        current ??= await start(fixedPort);
      }),
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}

export async function startDynamo(dataDir: string, port: number): Promise<Backend> {
  const path = join(dataDir, 'dynamodb');
  await mkdir(path, { recursive: true });
  const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const actual = await listen(server, port);
  return { name: 'DynamoDB (dynalite)', endpoint: `http://127.0.0.1:${actual}`, stop: () => close(server) };
}

/**
 * s3rver looks the access key id up in a registry of one dummy account: mapping any id to it lets
 * whatever credentials the SDK finds (a developer's real ones too) work locally.
 */
function acceptAnyAccessKey(): void {
  const AWSAccount = createRequire(import.meta.url)('s3rver/lib/models/account.js') as {
    registry: Map<string, unknown> & { acceptsAny?: true };
    DUMMY_ACCOUNT: unknown;
  };
  const registry = AWSAccount.registry;
  if (registry.acceptsAny) return;
  const lookup = registry.get.bind(registry);
  registry.get = (id: string) => lookup(id) ?? AWSAccount.DUMMY_ACCOUNT;
  registry.acceptsAny = true;
}

export async function startS3(dataDir: string, port: number): Promise<Backend> {
  const directory = join(dataDir, 's3');
  await mkdir(directory, { recursive: true });
  acceptAnyAccessKey();
  const s3rver = new S3rver({ directory, silent: true, allowMismatchedSignatures: true, vhostBuckets: false });
  // Not s3rver.run(): its listen never settles when the port is taken, and a busy port must fail.
  const server = createServer(s3rver.callback());
  const actual = await listen(server, port);
  return {
    name: 'S3 (s3rver)',
    endpoint: `http://127.0.0.1:${actual}`,
    stop: async () => {
      await close(server);
      s3rver.logger.close();
    },
  };
}

/**
 * Not `startFauxqs()`, which binds 0.0.0.0. Its persistence is wired as startFauxqs does, from
 * modules the package does not export, loaded by file URL.
 */
export async function startSqs(dataDir: string, port: number): Promise<Backend> {
  const path = join(dataDir, 'sqs');
  await mkdir(path, { recursive: true });
  const entry = import.meta.resolve('fauxqs');
  const internal = (file: string) => import(new URL(file, entry).href);
  const [{ SqsStore }, { SnsStore }, { S3Store }, { PersistenceManager }] = await Promise.all([
    internal('./sqs/sqsStore.js'),
    internal('./sns/snsStore.js'),
    internal('./s3/s3Store.js'),
    internal('./persistence.js'),
  ]);
  const sqsStore = new SqsStore();
  const snsStore = new SnsStore();
  const s3Store = new S3Store();
  const persistence = new PersistenceManager(path);
  persistence.load(sqsStore, snsStore, s3Store);
  sqsStore.persistence = persistence;
  snsStore.persistence = persistence;
  s3Store.persistence = persistence;
  for (const queue of sqsStore.allQueues()) queue.persistence = persistence;
  const app = buildApp({ logger: false, host: '127.0.0.1', stores: { sqsStore, snsStore, s3Store } });
  const address = await app.listen({ host: '127.0.0.1', port });
  return {
    name: 'SQS (fauxqs)',
    endpoint: `http://127.0.0.1:${new URL(address).port}`,
    stop: async () => {
      await app.close();
      persistence.close();
    },
  };
}

/** Undefined means the SDK's default, AWS. */
export interface Endpoints {
  dynamodb?: string;
  s3?: string;
  sqs?: string;
}

/** Starts each backend embedded unless `<NAME>_ENDPOINT` names one ('aws' for the SDK's default). */
export async function startBackends(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  ports: Record<keyof Endpoints, number>,
  onStop: (stop: () => Promise<void>) => void,
): Promise<{ endpoints: Endpoints; embedded: Partial<Record<keyof Endpoints, EmbeddedBackend>>; started: EmbeddedBackend[] }> {
  const started: EmbeddedBackend[] = [];
  const embedded: Partial<Record<keyof Endpoints, EmbeddedBackend>> = {};
  const endpointFor = async (name: 'DYNAMODB' | 'S3' | 'SQS', start: (port: number) => Promise<Backend>, port: number): Promise<string | undefined> => {
    const given = env[`${name}_ENDPOINT`];
    if (given === 'aws') return undefined;
    if (given) return given;
    const backend = await listenOn(`${name}_PORT`, port, '127.0.0.1', () => startEmbedded(start, port));
    started.push(backend);
    embedded[name.toLowerCase() as keyof Endpoints] = backend;
    onStop(() => backend.stop());
    return backend.endpoint;
  };
  const endpoints: Endpoints = {};
  endpoints.dynamodb = await endpointFor('DYNAMODB', (port) => startDynamo(dataDir, port), ports.dynamodb);
  endpoints.s3 = await endpointFor('S3', (port) => startS3(dataDir, port), ports.s3);
  endpoints.sqs = await endpointFor('SQS', (port) => startSqs(dataDir, port), ports.sqs);
  return { endpoints, embedded, started };
}
