/**
 * package.json against the code git tracks: every package imported is declared, the Lambda code
 * takes what it loads at run time from `dependencies`, and every entry of `dependencies` is used.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCANNED = ['shared', 'functions', 'infra', 'editor', 'bench', 'test'];
/** Bundled into the functions, which ship `dependencies` only. */
const LAMBDA_CODE = /^(shared|functions)\//;
/** Code whose run-time imports justify an entry of `dependencies` (tests, bench and the editor build need only devDependencies). */
const PRODUCTION_CODE = /^(shared|functions|infra)\//;
/** Entries of `dependencies` no code imports, each with why it stays. */
const USED_WITHOUT_IMPORT: Record<string, string> = {};

// What esbuild does not report as an import: type-only ones (erased), and packages loaded
// through a require() of createRequire() or resolved by import.meta.resolve(). These are read
// from the source text, so a string that spells one counts too (this file's examples do).
const TYPE_REFERENCES = /\b(?:import|export)\s+type\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const RUNTIME_LOADS = /\b(?:require|createRequire\([^)]*\))\(\s*['"]([^'"]+)['"]|\b(?:require|import\.meta)\.resolve\(\s*['"]([^'"]+)['"]/g;

interface PackageUse {
  file: string;
  name: string;
  /** False when only types are imported: erased from the bundle, satisfied by an @types package too. */
  runtime: boolean;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));
const declared = new Set([...dependencies, ...Object.keys(manifest.devDependencies ?? {})]);

/**
 * What a file may import: the project's packages, or those of the package.json of a tool folder it
 * lies in (test/tools/openapi-client needs a TypeScript the project cannot have at its root).
 */
function declaredFor(file: string): Set<string> {
  for (let dir = dirname(file); dir !== '.' && dir !== ''; dir = dirname(dir)) {
    if (existsSync(join(ROOT, dir, 'package.json'))) {
      const own = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      return new Set(Object.keys(own.dependencies ?? {}));
    }
  }
  return declared;
}

/** The package a specifier names; undefined for built-ins, `#` aliases, paths and URLs. */
function packageOf(specifier: string): string | undefined {
  if (/^[./#]/.test(specifier) || isBuiltin(specifier) || /^[a-z][a-z\d+.-]*:/i.test(specifier)) return undefined;
  const [first, second] = specifier.split('/');
  return first!.startsWith('@') ? `${first}/${second}` : first;
}

/** The @types package that declares a package's types: `@types/node`, `@types/scope__name`. */
const typesOf = (name: string) => `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;

function trackedSources(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', ...SCANNED], { cwd: ROOT, encoding: 'utf8' }).split('\0');
  // A file deleted in the working tree but not yet in git's index is no longer code.
  return listed.filter((file) => /\.(ts|mts|mjs|js)$/.test(file) && existsSync(join(ROOT, file)));
}

/** Each file's run-time import specifiers, as esbuild parses them (strings and comments are not imports). */
async function parsedImports(files: string[]): Promise<Map<string, string[]>> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: files,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    outdir: 'out',
    logLevel: 'silent',
    // As tsc and Node read this code: `import { type A } from 'a'` still loads 'a'.
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    plugins: [
      {
        name: 'specifiers-only',
        setup: (esbuild) => {
          // Nothing is resolved, so the metafile lists each specifier as written.
          esbuild.onResolve({ filter: /.*/ }, (args) => (args.kind === 'entry-point' ? undefined : { path: args.path, external: true }));
          // A computed specifier names no package, and esbuild would expand `../${x}` to every file it matches.
          esbuild.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => ({
            contents: (await readFile(args.path, 'utf8')).replace(/\b(import|require)\((?!\s*(['"])[^'"]*\2\s*[,)])/g, '$1_('),
            loader: /ts$/.test(args.path) ? 'ts' : 'js',
          }));
        },
      },
    ],
  });
  return new Map(Object.entries(result.metafile.inputs).map(([file, input]) => [file, input.imports.map((item) => item.path)]));
}

const matches = (source: string, pattern: RegExp) => [...source.matchAll(pattern)].map((match) => match.slice(1).find((group) => group !== undefined)!);

async function packageUses(): Promise<PackageUse[]> {
  const files = trackedSources();
  const parsed = await parsedImports(files);
  return files.flatMap((file) => {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const runtime = new Set([...(parsed.get(file) ?? []), ...matches(source, RUNTIME_LOADS)].map(packageOf).filter((name) => name !== undefined));
    const types = new Set(
      matches(source, TYPE_REFERENCES)
        .map(packageOf)
        .filter((name): name is string => name !== undefined && !runtime.has(name)),
    );
    return [...[...runtime].map((name) => ({ file, name, runtime: true })), ...[...types].map((name) => ({ file, name, runtime: false }))];
  });
}

let uses: PackageUse[];

beforeAll(async () => {
  uses = await packageUses();
});

describe('declared imports', () => {
  it.each([
    ['@aws-sdk/client-s3', '@aws-sdk/client-s3'],
    ['@aws-sdk/client-s3/dist-es/index.js', '@aws-sdk/client-s3'],
    ['ajv/dist/2020.js', 'ajv'],
    ['ipaddr.js', 'ipaddr.js'],
  ])('reduces the specifier %j to the package %j', (specifier, name) => {
    expect(packageOf(specifier)).toBe(name);
  });

  it.each(['node:fs', 'fs/promises', '#shared/http/route.ts', '../support/event.ts', '/abs/path.js', 'data:text/javascript,export {}'])(
    'names no package for %j',
    (specifier) => {
      expect(packageOf(specifier)).toBeUndefined();
    },
  );

  it.each([
    ["createRequire(import.meta.url)('s3rver/lib/models/account.js')", 's3rver/lib/models/account.js'],
    ["const require = createRequire(import.meta.url); require('valibot')", 'valibot'],
    ["const entry = import.meta.resolve('fauxqs');", 'fauxqs'],
  ])('sees the run-time load in %j', (source, specifier) => {
    expect(matches(source, RUNTIME_LOADS)).toEqual([specifier]);
  });

  it.each([
    ["import type { A } from 'vitest';", 'vitest'],
    ["export type {\n  A,\n} from 'vitest';", 'vitest'],
    ["let h: typeof import('vitest');", 'vitest'],
  ])('sees the type reference in %j', (source, specifier) => {
    expect(matches(source, TYPE_REFERENCES)).toEqual([specifier]);
  });

  it('finds the run-time and type-only imports of the tracked files', () => {
    // A scan that silently found nothing would pass every check below.
    expect(uses).toEqual(
      expect.arrayContaining([
        { file: 'shared/http/handler.ts', name: '@middy/core', runtime: true },
        { file: 'shared/route-types.ts', name: 'aws-lambda', runtime: false },
        { file: 'test/support/contract.ts', name: 'ajv', runtime: true },
      ]),
    );
  });

  it('declares every imported package in dependencies or devDependencies', () => {
    const undeclared = uses.filter((use) => {
      const names = declaredFor(use.file);
      return !names.has(use.name) && (use.runtime || !names.has(typesOf(use.name)));
    });

    expect(undeclared.map((use) => `${use.file} imports ${use.name}${use.runtime ? '' : ' (types)'}`)).toEqual([]);
  });

  it('takes the packages the Lambda code loads at run time from dependencies, not devDependencies', () => {
    const fromDev = uses.filter((use) => use.runtime && LAMBDA_CODE.test(use.file) && declared.has(use.name) && !dependencies.has(use.name));

    expect(fromDev.map((use) => `${use.file} imports ${use.name}`)).toEqual([]);
  });

  it('uses every entry of dependencies in production code, or says why it stays', () => {
    const used = new Set(uses.filter((use) => use.runtime && PRODUCTION_CODE.test(use.file)).map((use) => use.name));

    expect([...dependencies].filter((name) => !used.has(name) && !(name in USED_WITHOUT_IMPORT))).toEqual([]);
  });
});
