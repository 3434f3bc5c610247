/**
 * Copies of SDK clients whose schemas write their trait keys as literals, so esbuild leaves out the
 * schemas of operations a function never sends (docs/deploy.md, "Function bundles").
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageCopy } from '#infra/constructs/package-copies.ts';

/** Keyed by constant (`{ [_hH]: _x }`, evanw/esbuild#4373) until a release carries smithy-lang/smithy-typescript#1889. */
export const LITERAL_KEY_PACKAGES = ['@aws-sdk/client-s3'] as const;

/** Writes each computed key `[_c]:` whose name is one of the module's string constants as that string. */
export function literalTraitKeys(source: string): string {
  const strings = new Map([...source.matchAll(/^const (_\w+) = ("(?:[^"\\\n]|\\.)*");$/gm)].map((match) => [match[1]!, match[2]!]));
  return source.replace(/\[(_\w+)\]:/g, (whole, name: string) => {
    const value = strings.get(name);
    return value === undefined ? whole : `${value}:`;
  });
}

/** The copy of `name` under node_modules/.cache, once per version, so its imports resolve as the package's do. */
export function literalKeysCopy(projectRoot: string, name: (typeof LITERAL_KEY_PACKAGES)[number]): string {
  return packageCopy(projectRoot, name, {
    cache: 'easel-literal-keys',
    revision: 1,
    folders: ['dist-es'],
    change(staging) {
      const schemas = join(staging, 'dist-es', 'schemas');
      for (const file of readdirSync(schemas).filter((entry) => entry.endsWith('.js'))) {
        writeFileSync(join(schemas, file), literalTraitKeys(readFileSync(join(schemas, file), 'utf8')));
      }
    },
  });
}
