/**
 * vitest's globalSetup: builds the editor once for the whole run. Without it every file that
 * starts a runtime builds it again (esbuild, then brotli at quality 11 on the codecs'
 * WebAssembly): seconds of CPU each, and the same files every time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where startTestRuntime finds the run's build (./local.ts); the workers inherit the variable. */
export const SHARED_EDITOR_VARIABLE = 'EASEL_TEST_EDITOR_ASSETS_DIR';

export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'easel-test-editor-'));
  // Imported here, so that ./local.ts reading the variable's name loads no esbuild.
  const { buildEditor } = await import('#editor/build.ts');
  await buildEditor(dir);
  process.env[SHARED_EDITOR_VARIABLE] = dir;
  return async () => {
    delete process.env[SHARED_EDITOR_VARIABLE];
    await rm(dir, { recursive: true, force: true });
  };
}
