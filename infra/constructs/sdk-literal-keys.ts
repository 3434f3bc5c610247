/**
 * Copies of SDK clients whose schemas write their trait keys as literals, so esbuild leaves out the
 * schemas of operations a function never sends (docs/deploy.md, "Function bundles").
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Keyed by constant (`{ [_hH]: _x }`, evanw/esbuild#4373) until a release carries smithy-lang/smithy-typescript#1889. */
export const LITERAL_KEY_PACKAGES = ['@aws-sdk/client-s3'] as const;

/** Bumped when literalTraitKeys() changes, so that copies made by an older version are not reused. */
const REWRITE_VERSION = 1;

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
  const source = dirname(createRequire(join(projectRoot, 'package.json')).resolve(`${name}/package.json`));
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { version: string };
  const cache = join(projectRoot, 'node_modules', '.cache', 'easel-literal-keys');
  const target = join(cache, `${name.replace('/', '+')}@${version}-r${REWRITE_VERSION}`);
  if (existsSync(target)) return target;
  mkdirSync(cache, { recursive: true });
  // Built aside and renamed into place, so that bundles built at the same time never see half a copy.
  const staging = mkdtempSync(join(cache, '.staging-'));
  try {
    cpSync(join(source, 'package.json'), join(staging, 'package.json'));
    cpSync(join(source, 'dist-es'), join(staging, 'dist-es'), { recursive: true });
    const schemas = join(staging, 'dist-es', 'schemas');
    for (const file of readdirSync(schemas).filter((entry) => entry.endsWith('.js'))) {
      writeFileSync(join(schemas, file), literalTraitKeys(readFileSync(join(schemas, file), 'utf8')));
    }
    renameSync(staging, target);
  } catch (error) {
    // Another build renamed its copy into place first.
    if (!existsSync(target)) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}
