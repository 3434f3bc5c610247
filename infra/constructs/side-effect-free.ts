/**
 * Copies of packages that declare no `sideEffects` although importing them does nothing a function
 * relies on, so esbuild leaves out the modules a function never calls (docs/deploy.md, "Function bundles").
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageCopy } from '#infra/constructs/package-copies.ts';

/**
 * Each package, with the folders its ES build lives in. @simplewebauthn/server's index re-exports
 * every verifier and the metadata service (a singleton built at import), so without the flag every
 * passkey route carries the attestation formats' certificate code (@peculiar/x509, tsyringe).
 */
export const SIDE_EFFECT_FREE_PACKAGES = { '@simplewebauthn/server': ['esm'] } as const;

export type SideEffectFreePackage = keyof typeof SIDE_EFFECT_FREE_PACKAGES;

/** The copy of `name` whose package.json says `"sideEffects": false`, made once per version. */
export function sideEffectFreeCopy(projectRoot: string, name: SideEffectFreePackage): string {
  return packageCopy(projectRoot, name, {
    cache: 'easel-side-effect-free',
    revision: 2,
    folders: SIDE_EFFECT_FREE_PACKAGES[name],
    change(staging) {
      // esbuild reads the flag from a module's nearest package.json: the ES folder's own ({"type": "module"}) too.
      const manifests = readdirSync(staging, { recursive: true, encoding: 'utf8' }).filter((file) => file === 'package.json' || file.endsWith('/package.json'));
      for (const file of manifests) {
        const manifest = JSON.parse(readFileSync(join(staging, file), 'utf8')) as Record<string, unknown>;
        writeFileSync(join(staging, file), `${JSON.stringify({ ...manifest, sideEffects: false }, null, 2)}\n`);
      }
    },
  });
}
