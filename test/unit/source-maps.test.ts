import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, bundleOptions, PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { mapStack } from '#shared/source-maps.ts';

// Inside the project, as the stack's bundling folder (cdk.out) is: the map's sources are relative paths to it.
mkdirSync(join(PROJECT_ROOT, 'test-output'), { recursive: true });
const dir = mkdtempSync(join(PROJECT_ROOT, 'test-output', 'source-maps-'));
/** The line of shared/config.ts that throws for a missing variable, as the source has it today. */
const THROW_LINE =
  readFileSync(join(PROJECT_ROOT, 'shared', 'config.ts'), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes('Missing required environment variable')) + 1;

/** Builds the fixture as the stack builds a function (minified, names too, the map beside it) into `folder`. */
async function bundleFixture(folder: string, sourcemap: boolean): Promise<string> {
  const outfile = join(dir, folder, 'index.mjs');
  await build({
    ...bundleOptions('test/fixtures/source-maps/entry.ts'),
    sourcemap: sourcemap && BUNDLE.sourcemap,
    sourcesContent: BUNDLE.sourcesContent,
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

/**
 * What the bundle logs for the error, in a plain Node process as on Lambda: no
 * --enable-source-maps, and none of the test runner's own stack mapping.
 */
function loggedIn(bundle: string): { stack?: string; message?: string } {
  const script = `const { loggedConfigError } = await import(${JSON.stringify(pathToFileURL(bundle).href)}); process.stdout.write(JSON.stringify(loggedConfigError()));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8' })) as {
    stack?: string;
  };
}

describe('mapStack', () => {
  let mapped: { stack?: string; message?: string };
  let unmapped: { stack?: string };

  beforeAll(async () => {
    const withMap = await bundleFixture('with-map', true);
    const withoutMap = await bundleFixture('without-map', false);
    mapped = loggedIn(withMap);
    unmapped = loggedIn(withoutMap);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the source file and line of a frame in a minified bundle that has a map beside it', () => {
    // Assess
    expect(mapped.message).toBe('Missing required environment variable PUBLIC_BASE_URL');
    expect(THROW_LINE).toBeGreaterThan(1);
    expect(mapped.stack?.split('\n')[1]).toMatch(new RegExp(`^\\s+at required \\(shared/config\\.ts:${THROW_LINE}:\\d+\\)$`));
    expect(mapped.stack?.split('\n')[2]).toMatch(/^\s+at parseConfig \(shared\/config\.ts:\d+:\d+\)$/);
    // Called from outside the bundle: no caller in the map says its name, so it stays minified.
    expect(mapped.stack).toMatch(/at [\w$]+ \(test\/fixtures\/source-maps\/entry\.ts:\d+:\d+\)/);
    expect(mapped.stack).not.toContain('index.mjs');
  });

  it('leaves the frames of a bundle without a map as they are', () => {
    // Assess
    expect(unmapped.stack?.split('\n')[1]).toMatch(/^\s+at [\w$]+ \(file:\/\/.*\/without-map\/index\.mjs:\d+:\d+\)$/);
  });

  it('leaves a stack of the TypeScript sources unchanged', () => {
    // Prepare
    const stack = `Error: boom\n    at required (${join(PROJECT_ROOT, 'shared', 'config.ts')}:126:11)\n    at file:///work/x.ts:3:1`;

    // Act
    const result = mapStack(stack);

    // Assess
    expect(result).toBe(stack);
  });
});
