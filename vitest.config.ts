import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/env.ts'],
    // The editor, built once for every runtime the files start.
    globalSetup: ['test/support/editor-build.ts'],
    // Integration files each start their own embedded backends; forks keep their module state apart.
    pool: 'forks',
    // Both cores: most files wait on a browser or a backend; vitest's default leaves one idle here.
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 60_000,
    // A poll waits for a browser or a queue: on a busy machine that is seconds, not vitest's default 1 s.
    expect: { poll: { timeout: 20_000 } },
    hookTimeout: 60_000,
  },
});
