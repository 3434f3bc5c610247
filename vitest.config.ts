import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Unit files that share one module graph per worker (isolate: false), which saves each its own
 * process start and imports. Only files that read no environment, touch no module-level state
 * (the wiring, the SDK, config, log level), install no spies before imports and do not look at
 * the process (its children, its timers): one that does stays isolated, as every file not named here.
 */
const SHARED_MODULES = [
  'authenticator',
  'capture-login-options',
  'capture-options',
  'capture-sign-in',
  'clean-capture-assets',
  'consent-moves',
  'contract-check',
  'docs-links',
  'docs-markdown',
  'dynamic-imports',
  'editor-annotations',
  'editor-capture-request',
  'editor-commands',
  'editor-crop',
  'editor-document',
  'editor-drawing',
  'editor-history',
  'editor-model',
  'editor-problem-text',
  'editor-redaction',
  'editor-releases',
  'editor-session',
  'editor-tweet',
  'egress-proxy',
  'export',
  'http-multipart',
  'identity-credentials',
  'identity-docs',
  'ids',
  'layers',
  'media-proxy',
  'net-guard',
  'openapi-client',
  'openapi-workspace',
  'operation-docs',
  'redaction-detect',
  'redaction-layout',
  'redaction-paint',
  'redaction-snapshot',
  'release-intake',
  'release-shot-runs',
  'release-shot-worker',
  'sdk-literal-keys',
  'shell-services',
  'side-effect-free',
  'tweets',
  'workspace-schemas',
].map((name) => `test/unit/${name}.test.ts`);

/**
 * Infra files that build stacks and bundles and read them, touching no environment, sharing one
 * module graph per worker as SHARED_MODULES do: the CDK loads, and its template validation engine
 * starts, once per worker.
 */
const SHARED_INFRA = [
  'capture-bundle',
  'capture-fonts',
  'capture-image',
  'docs-figures',
  'edge',
  'editor-bundle',
  'nag',
  'operations',
  'prerendered-bundle',
  'stack',
  'template-quotas',
].map((name) => `test/infra/${name}.test.ts`);

export default defineConfig({
  test: {
    setupFiles: ['test/support/env.ts'],
    // The editor, built once for every runtime the files start; a folder where files share bundled assets.
    globalSetup: ['test/support/editor-build.ts', 'test/support/shared-assets.ts'],
    // Integration files each start their own embedded backends; forks keep their module state apart.
    pool: 'forks',
    // Both cores: most files wait on a browser or a backend; vitest's default leaves one idle here.
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 60_000,
    // A poll waits for a browser or a queue: on a busy machine that is seconds, not vitest's default 1 s.
    expect: { poll: { timeout: 20_000 } },
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit-shared', include: SHARED_MODULES, isolate: false } },
      { extends: true, test: { name: 'infra-shared', include: SHARED_INFRA, isolate: false } },
      {
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SHARED_MODULES, ...SHARED_INFRA] },
      },
    ],
  },
});
