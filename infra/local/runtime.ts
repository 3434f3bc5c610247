/** `npm start`'s runtime: one process calling the very handler modules Lambda runs, with embedded backends. */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { resetConfig } from '#shared/config.ts';
import { TABLES } from '#shared/resources.ts';
import { shutdown } from '#shared/lifecycle.ts';
import { log, serializeError } from '#shared/log.ts';
import { startBackends, type EmbeddedBackend } from '#infra/local/backends.ts';
import { handlerEnvironment, sdkClients } from '#infra/local/environment.ts';
import { loadHttpHandlers, startWorkers } from '#infra/local/handlers.ts';
import { editorAssets, provisionResources } from '#infra/local/provision.ts';
import { dataDirFrom, writeEndpoints } from '#infra/local/endpoints-file.ts';
import { portFrom } from '#infra/local/ports.ts';
import { startServer, type Exchange } from '#infra/local/server.ts';
import { LOCAL_CLEAN_ASSETS } from '#infra/assets/local-builders.ts';
import { localFontFolder } from '#infra/assets/fonts.ts';
import { buildCleanAssetsLocally } from '#shared/services/capture/clean-assets.ts';

export interface LocalOptions {
  /** Sees every answer before it is written (tests check the contract). */
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
  /** false buffers stream bodies as Lambda must, to try the deployed behaviour. Default: EASEL_LOCAL_STREAMING !== '0'. */
  streaming?: boolean;
}

export interface LocalRuntime {
  url: string;
  dataDir: string;
  backends: { name: string; endpoint: string }[];
  /** The embedded backends, which can be stopped and started again while the runtime runs (fault tests). */
  embedded: { dynamodb?: EmbeddedBackend; s3?: EmbeddedBackend; sqs?: EmbeddedBackend };
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A failure at any step stops what the earlier ones started. */
export async function startLocal(options: LocalOptions = {}): Promise<LocalRuntime> {
  const env = options.env ?? process.env;
  const host = options.host ?? env.HOST ?? '127.0.0.1';
  const dataDir = options.dataDir === undefined ? dataDirFrom(env) : resolve(options.dataDir);
  const streaming = options.streaming ?? env.EASEL_LOCAL_STREAMING !== '0';
  if (options.clean ?? env.EASEL_CLEAN === '1') await rm(dataDir, { recursive: true, force: true });

  const stoppers: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stoppers.reverse()) await stop().catch((error) => log.warn('stop failed', { error: serializeError(error) }));
    stoppers.length = 0;
  };
  const onStop = (stop: () => Promise<void>) => void stoppers.push(stop);

  try {
    // First: the public base URL must be known before any handler loads.
    const server = await startServer({ host, port: options.port ?? portFrom(env, 'PORT'), configuredBaseUrl: env.PUBLIC_BASE_URL });
    onStop(() => server.stop());
    const { url } = server;

    const ports = options.backendPorts ?? {};
    const { endpoints, embedded, started } = await startBackends(
      env,
      dataDir,
      {
        dynamodb: ports.dynamodb ?? portFrom(env, 'DYNAMODB_PORT'),
        s3: ports.s3 ?? portFrom(env, 'S3_PORT'),
        sqs: ports.sqs ?? portFrom(env, 'SQS_PORT'),
      },
      onStop,
    );

    // The machine's fonts never: the capture fonts, unless FONTCONFIG_PATH names another set.
    const fonts = env.FONTCONFIG_PATH ?? (await localFontFolder());
    const handlerEnv = handlerEnvironment(env, { url, endpoints, anyEmbedded: started.length > 0, fonts, dataDir });
    Object.assign(process.env, handlerEnv);
    const { region, dynamo, s3, sqs } = sdkClients(handlerEnv, endpoints);
    onStop(async () => {
      for (const client of [dynamo, s3, sqs]) client.destroy();
    });

    const queues = await provisionResources({ dynamo, s3, sqs }, endpoints, env, handlerEnv);
    handlerEnv.EDITOR_ASSETS_DIR = await editorAssets(env, onStop);
    Object.assign(process.env, handlerEnv);
    resetConfig();

    // No bundling ran, so captures build their clean-up assets from node_modules.
    buildCleanAssetsLocally(LOCAL_CLEAN_ASSETS);
    // Whatever the handlers started (the capture browser) stops with the runtime.
    onStop(() => shutdown());
    server.serve(await loadHttpHandlers(), { streaming, observe: options.observe });
    if (options.workers ?? true) await startWorkers(queues, { client: sqs, region }, onStop);
    // Only once everything answers.
    const forget = writeEndpoints(dataDir, { pid: process.pid, url, dynamodb: endpoints.dynamodb, workspaceTable: handlerEnv[TABLES.workspace.env]! });
    onStop(async () => forget());

    return {
      url,
      dataDir,
      backends: started.map(({ name, endpoint }) => ({ name, endpoint })),
      embedded,
      env: handlerEnv,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
