/** The set-up of a test file whose captures reach local pages. */
import { afterAll, beforeAll } from 'vitest';
import { startTestRuntime, type TestRuntime } from './local.ts';

/**
 * For a test file whose captures reach local pages: starts the pages `start` serves, opens their
 * ports to captures (UNSAFE_TEST_LOOPBACK_PORTS), then a runtime; stops both after the file.
 */
export function useRuntimeWithPages<P extends { port: number; ports?: number[]; close(): Promise<void> }>(
  start: () => Promise<P>,
): { readonly runtime: TestRuntime; readonly pages: P } {
  let runtime: TestRuntime | undefined;
  let pages: P | undefined;
  beforeAll(async () => {
    pages = await start();
    process.env.UNSAFE_TEST_LOOPBACK_PORTS = (pages.ports ?? [pages.port]).join(',');
    runtime = await startTestRuntime();
  });
  afterAll(async () => {
    await runtime?.dispose();
    await pages?.close();
    delete process.env.UNSAFE_TEST_LOOPBACK_PORTS;
  });
  return {
    get runtime() {
      return runtime!;
    },
    get pages() {
      return pages!;
    },
  };
}
