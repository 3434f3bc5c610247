/** Changed copies of installed packages under node_modules/.cache, which the bundles alias the packages to. */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface PackageCopy {
  /** Folder of node_modules/.cache that holds this kind of copy. */
  cache: string;
  /** Bumped when `change` changes, so that copies an older version made are not reused. */
  revision: number;
  /** The package's folders the bundles read, copied beside its package.json. */
  folders: readonly string[];
  /** Changes the staged copy in place. */
  change(staging: string): void;
}

/**
 * The copy of package `name` made by `how`, once per version of the package; it sits under the
 * project's node_modules, so its own imports resolve as the package's do.
 */
export function packageCopy(projectRoot: string, name: string, how: PackageCopy): string {
  // Found whatever the package's exports allow.
  const source = dirname(findPackageJSON(name, pathToFileURL(join(projectRoot, 'package.json')))!);
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { version: string };
  const cache = join(projectRoot, 'node_modules', '.cache', how.cache);
  const target = join(cache, `${name.replace('/', '+')}@${version}-r${how.revision}`);
  if (existsSync(target)) return target;
  mkdirSync(cache, { recursive: true });
  // Built aside and renamed into place, so that bundles built at the same time never see half a copy.
  const staging = mkdtempSync(join(cache, '.staging-'));
  try {
    cpSync(join(source, 'package.json'), join(staging, 'package.json'));
    for (const folder of how.folders) cpSync(join(source, folder), join(staging, folder), { recursive: true });
    how.change(staging);
    renameSync(staging, target);
  } catch (error) {
    // Another build renamed its copy into place first.
    if (!existsSync(target)) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}
