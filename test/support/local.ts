import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocal, type LocalOptions, type LocalRuntime } from '#infra/local/runtime.ts';
import { auditedStop, collectLogLines } from './secret-audit.ts';

const HANDLER_SETTINGS = ['PUBLIC_BASE_URL', 'DELETION_QUEUE_URL', 'DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'SQS_ENDPOINT', 'PORT'];

export interface TestRuntime extends LocalRuntime {
  /** Stops the runtime and removes its data folder. */
  dispose(): Promise<void>;
}

/**
 * Starts the local runtime on free ports with its own data folder, as `npm start` would, for
 * integration tests that go through real HTTP and the embedded backends.
 *
 * Stopping it (stop or dispose) fails when a secret is found in what its backends store or in
 * the log lines of this process (./secret-audit.ts).
 */
export async function startTestRuntime(options: LocalOptions = {}): Promise<TestRuntime> {
  collectLogLines();
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
  const stop = auditedStop(runtime);
  return {
    ...runtime,
    stop,
    dispose: async () => {
      try {
        await stop();
      } finally {
        if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
