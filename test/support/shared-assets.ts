/**
 * vitest's globalSetup: a folder for the run where test files share function assets they would
 * otherwise each bundle (sharedRowAsset in ./cdk.ts); gone when the run ends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where sharedRowAsset finds the run's folder; the workers inherit the variable. */
export const SHARED_ASSETS_VARIABLE = 'EASEL_TEST_SHARED_ASSETS_DIR';

export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'easel-test-assets-'));
  process.env[SHARED_ASSETS_VARIABLE] = dir;
  return async () => {
    delete process.env[SHARED_ASSETS_VARIABLE];
    await rm(dir, { recursive: true, force: true });
  };
}
