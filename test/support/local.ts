import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocal, type LocalOptions, type LocalRuntime } from '#infra/local/runtime.ts';
import { contractChecker, type ContractChecker } from './contract.ts';
import { SHARED_EDITOR_VARIABLE } from './editor-build.ts';
import { auditedStop, collectLogLines } from './secret-audit.ts';

const HANDLER_SETTINGS = [
  'PUBLIC_BASE_URL',
  'DELETION_QUEUE_URL',
  'MAIL_QUEUE_URL',
  'EMAIL_OUTBOX',
  'SHOT_QUEUE_URL',
  'LOCAL_SECRETS_DIR',
  'DYNAMODB_ENDPOINT',
  'S3_ENDPOINT',
  'SQS_ENDPOINT',
  'PORT',
];

export interface TestRuntime extends LocalRuntime {
  /** Stops the runtime and removes its data folder. */
  dispose(): Promise<void>;
}

/**
 * Starts the local runtime on free ports with its own data folder, as `npm start` would, for
 * integration tests that go through real HTTP and the embedded backends.
 *
 * Stopping it (stop or dispose) fails when a secret is found in what its backends store or in
 * the log lines of this process (./secret-audit.ts), and when any answer it gave broke the
 * published contract (./contract.ts): the test file that produced it fails, naming the answer.
 */
export async function startTestRuntime(options: LocalOptions = {}): Promise<TestRuntime> {
  collectLogLines();
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'easel-test-')));
  // `options.env` adds to this process's environment rather than replacing it.
  const env = { ...process.env, ...options.env };
  for (const name of HANDLER_SETTINGS) delete env[name];
  // The run's one build of the editor (./editor-build.ts), unless the test names its own.
  const shared = process.env[SHARED_EDITOR_VARIABLE];
  if (shared && !options.env?.EDITOR_ASSETS_DIR) env.EDITOR_ASSETS_DIR = shared;
  const drift: string[] = [];
  let checker: ContractChecker | undefined;
  let baseUrl = '';
  const runtime = await startLocal({
    port: 0,
    backendPorts: { dynamodb: 0, s3: 0, sqs: 0 },
    ...options,
    env,
    observe: (exchange) => {
      options.observe?.(exchange);
      checker ??= contractChecker(baseUrl);
      const problem = checker.check(exchange);
      if (problem && drift.length < 20) drift.push(problem);
    },
    dataDir,
  });
  baseUrl = runtime.env.PUBLIC_BASE_URL ?? runtime.url;
  const audited = auditedStop(runtime);
  const stop = async () => {
    await audited();
    if (drift.length > 0) throw new Error(`Answers that break the published contract (/openapi.json):\n- ${drift.join('\n- ')}`);
  };
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
