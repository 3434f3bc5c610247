/**
 * Copies of packages that declare no `sideEffects` although importing them does nothing a function
 * relies on, so esbuild leaves out the modules a function never calls (docs/deploy.md, "Function bundles").
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageCopy } from '#infra/constructs/package-copies.ts';

export interface SideEffectFreePackage {
  name: string;
  /** The package's folders its ES modules live in. */
  folders: readonly string[];
}

/**
 * @simplewebauthn/server's index builds the metadata service at import, each @peculiar/asn1-* index runs every schema's decorators:
 * unflagged, every passkey function carries and runs every attestation format. Not @peculiar/utils: an alias to its folder would not resolve.
 */
const FAMILIES = [
  { scope: '@simplewebauthn', name: /^server$/, folders: ['esm'] },
  { scope: '@peculiar', name: /^asn1-/, folders: ['build'] },
] as const;

/** The installed packages the bundles take from a side-effect-free copy. */
export function sideEffectFreePackages(projectRoot: string): SideEffectFreePackage[] {
  return FAMILIES.flatMap(({ scope, name, folders }) =>
    readdirSync(join(projectRoot, 'node_modules', scope))
      .filter((entry) => name.test(entry))
      .map((entry) => ({ name: `${scope}/${entry}`, folders })),
  );
}

/** The copy of `pkg` whose every package.json says `"sideEffects": false`, made once per version. */
export function sideEffectFreeCopy(projectRoot: string, pkg: SideEffectFreePackage): string {
  return packageCopy(projectRoot, pkg.name, {
    cache: 'easel-side-effect-free',
    revision: 2,
    folders: pkg.folders,
    change(staging) {
      // esbuild reads the flag from a module's nearest package.json: an ES folder's own ({"type": "module"}) too.
      const manifests = readdirSync(staging, { recursive: true, encoding: 'utf8' }).filter((file) => file === 'package.json' || file.endsWith('/package.json'));
      for (const file of manifests) {
        const manifest = JSON.parse(readFileSync(join(staging, file), 'utf8')) as Record<string, unknown>;
        writeFileSync(join(staging, file), `${JSON.stringify({ ...manifest, sideEffects: false }, null, 2)}\n`);
      }
    },
  });
}
