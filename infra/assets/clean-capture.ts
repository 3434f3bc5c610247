/**
 * `node infra/assets/clean-capture.ts <folder>`: writes what the capture function's clean captures
 * read beside its bundle, the serialized ad engine and autoconsent's script with its rules. The
 * stack's bundling runs it as a command hook.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildAdEngine } from '#infra/assets/ad-engine.ts';
import { buildConsentAsset } from '#infra/assets/consent-script.ts';
import { AD_ENGINE_FILE } from '#shared/services/capture/ad-blocking.ts';
import { AUTOCONSENT_FILE } from '#shared/services/capture/consent-asset.ts';
import { scriptArguments } from '#infra/assets/script-arguments.ts';

/** Writes both files into `folder` (created if need be); returns the paths written. */
export function writeCleanCaptureAssets(folder: string): string[] {
  mkdirSync(folder, { recursive: true });
  const engine = join(folder, AD_ENGINE_FILE);
  writeFileSync(engine, buildAdEngine());
  const consent = join(folder, AUTOCONSENT_FILE);
  writeFileSync(consent, JSON.stringify(buildConsentAsset()));
  return [engine, consent];
}

if (import.meta.main) {
  const [folder] = scriptArguments('node infra/assets/clean-capture.ts <folder>');
  writeCleanCaptureAssets(resolve(folder!));
}
