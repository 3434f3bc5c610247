/** Changed copies of installed packages under node_modules/.cache, which the bundles alias the packages to. */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cachedBuild, packageFolder, packageVersion } from '#infra/assets/build-cache.ts';

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
  const from = pathToFileURL(join(projectRoot, 'package.json'));
  const source = packageFolder(name, from);
  const target = join(projectRoot, 'node_modules', '.cache', how.cache, `${name.replace('/', '+')}@${packageVersion(name, from)}-r${how.revision}`);
  return cachedBuild(target, (staging) => {
    cpSync(join(source, 'package.json'), join(staging, 'package.json'));
    for (const folder of how.folders) cpSync(join(source, folder), join(staging, folder), { recursive: true });
    how.change(staging);
  });
}
