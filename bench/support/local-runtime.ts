/** The local runtime a capture bench runs against: its own data folder, no workers, the fixture pages' port open to captures. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `work` (given the runtime's data folder) with a fresh runtime on free ports; stops it, closes `pages` and removes its data whatever happens. */
export async function withBenchRuntime<T>(pages: { port: number; close(): Promise<void> }, work: (dataDir: string) => Promise<T>): Promise<T> {
  process.env.UNSAFE_TEST_LOOPBACK_PORTS = String(pages.port);
  process.env.LOG_LEVEL = 'warn';
  const dataDir = await mkdtemp(join(tmpdir(), 'easel-bench-'));
  const { startLocal } = await import('#infra/local/runtime.ts');
  const runtime = await startLocal({ port: 0, backendPorts: { dynamodb: 0, s3: 0, sqs: 0 }, dataDir, workers: false, env: { ...process.env } });
  try {
    return await work(dataDir);
  } finally {
    await runtime.stop();
    await pages.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
