/**
 * The X-Ray SDK as one minified ES module in a folder shaped as its package: each function's bundle leaves
 * `aws-xray-sdk-core` external and imports it from there on a sampled invocation only (shared/aws/tracing.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type BuildOptions, buildSync } from 'esbuild';

export const XRAY_PACKAGE = 'aws-xray-sdk-core';

/** Writes `<folder>/aws-xray-sdk-core`, built with the bundles' own esbuild `settings`; returns that folder. */
export function writeXRayPackage(folder: string, settings: Pick<BuildOptions, 'target' | 'mainFields' | 'banner' | 'minify'>): string {
  const directory = join(folder, XRAY_PACKAGE);
  mkdirSync(directory, { recursive: true });
  buildSync({
    ...settings,
    entryPoints: [createRequire(import.meta.url).resolve(XRAY_PACKAGE)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: join(directory, 'index.mjs'),
    logLevel: 'error',
  });
  writeFileSync(join(directory, 'package.json'), `${JSON.stringify({ name: XRAY_PACKAGE, type: 'module', exports: './index.mjs' })}\n`);
  return directory;
}
