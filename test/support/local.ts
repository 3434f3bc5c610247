import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocal, type LocalOptions, type LocalRuntime } from '#infra/local/runtime.ts';

const HANDLER_SETTINGS = ['PUBLIC_BASE_URL', 'DELETION_QUEUE_URL', 'DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'SQS_ENDPOINT', 'PORT'];

export interface TestRuntime extends LocalRuntime {
  /** Stops the runtime and removes its data folder. */
  dispose(): Promise<void>;
}

/**
 * Starts the local runtime on free ports with its own data folder, as `npm start` would, for
 * integration tests that go through real HTTP and the embedded backends.
 */
export async function startTestRuntime(options: LocalOptions = {}): Promise<TestRuntime> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'easel-test-')));
  const env = { ...process.env };
  for (const name of HANDLER_SETTINGS) delete env[name];
  const runtime = await startLocal({
    port: 0,
    backendPorts: { dynamodb: 0, s3: 0, sqs: 0 },
    env,
    ...options,
    dataDir,
  });
  return {
    ...runtime,
    dispose: async () => {
      await runtime.stop();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
