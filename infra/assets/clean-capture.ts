/**
 * `node infra/assets/clean-capture.ts <folder>`: writes what the capture function's clean captures
 * read beside its bundle, the serialized ad engine and autoconsent's standalone build. The stack's
 * bundling runs it as a command hook.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAdEngine } from '#infra/assets/ad-engine.ts';
import { AD_ENGINE_FILE } from '#shared/services/capture/ad-blocking.ts';
import { AUTOCONSENT_FILE } from '#shared/services/capture/consent-banners.ts';

/** Writes both files into `folder` (created if need be); returns the paths written. */
export function writeCleanCaptureAssets(folder: string): string[] {
  mkdirSync(folder, { recursive: true });
  const engine = join(folder, AD_ENGINE_FILE);
  writeFileSync(engine, buildAdEngine());
  const script = join(folder, AUTOCONSENT_FILE);
  // The package exports only its module builds; the standalone one sits beside them.
  copyFileSync(join(dirname(createRequire(import.meta.url).resolve('@duckduckgo/autoconsent')), AUTOCONSENT_FILE), script);
  return [engine, script];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  if (!folder) {
    process.stderr.write('usage: node infra/assets/clean-capture.ts <folder>\n');
    process.exit(2);
  }
  writeCleanCaptureAssets(resolve(folder));
}
