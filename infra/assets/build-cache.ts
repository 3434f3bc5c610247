/** What the synth builds once and keeps under node_modules/.cache, named by its inputs: Chromium's pack, the fonts, changed package copies. */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import { basename, dirname, join } from 'node:path';

const STAGING = '.staging-';

/** The folder of installed package `name` as `from` resolves it, whatever its exports hide. */
export const packageFolder = (name: string, from: string | URL = import.meta.url): string => dirname(findPackageJSON(name, from)!);

export const packageVersion = (name: string, from?: string | URL): string =>
  (JSON.parse(readFileSync(join(packageFolder(name, from), 'package.json'), 'utf8')) as { version: string }).version;

/** Changes with `inputs`, and only then. */
export const inputsKey = (inputs: unknown): string => createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 16);

export interface CachedBuildOptions {
  /** Remove the other builds beside `target` (those of older inputs). */
  prune?: boolean;
}

function stagingFor(target: string): string {
  mkdirSync(dirname(target), { recursive: true });
  return mkdtempSync(join(dirname(target), STAGING));
}

/** Renames the staged build into place unless another build got there first; a failed build leaves nothing. */
function settle(staging: string, target: string, options: CachedBuildOptions, failed?: { error: unknown }): string {
  try {
    if (failed) throw failed.error;
    if (!existsSync(target)) renameSync(staging, target);
  } catch (error) {
    // Another build renamed its folder into place first.
    if (!existsSync(target)) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  if (options.prune) {
    const others = readdirSync(dirname(target)).filter((name) => name !== basename(target) && !name.startsWith(STAGING));
    for (const name of others) rmSync(join(dirname(target), name), { recursive: true, force: true });
  }
  return target;
}

/**
 * `target`, written by `write` into a folder beside it on first use and renamed into place whole, so builds
 * running at the same time never see half of one: the first rename wins.
 */
export function cachedBuild(target: string, write: (staging: string) => void, options: CachedBuildOptions = {}): string {
  if (existsSync(target)) return target;
  const staging = stagingFor(target);
  try {
    write(staging);
  } catch (error) {
    return settle(staging, target, options, { error });
  }
  return settle(staging, target, options);
}

/** {@link cachedBuild} of a `write` that works asynchronously. */
export async function cachedBuildAsync(target: string, write: (staging: string) => Promise<void>, options: CachedBuildOptions = {}): Promise<string> {
  if (existsSync(target)) return target;
  const staging = stagingFor(target);
  try {
    await write(staging);
  } catch (error) {
    return settle(staging, target, options, { error });
  }
  return settle(staging, target, options);
}
