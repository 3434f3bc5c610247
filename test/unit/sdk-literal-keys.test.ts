/** The SDK copies bundles use: schemas with literal trait keys, and otherwise the package's own. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { LITERAL_KEY_PACKAGES, literalKeysCopy, literalTraitKeys } from '#infra/constructs/sdk-literal-keys.ts';

/** A schema as data: thunks by their text, registries by their namespace and what they hold. */
function plain(value: unknown, seen = new Set<unknown>()): unknown {
  if (typeof value === 'function') return `function ${value.toString()}`;
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (value instanceof Map) return [...value].map(([key, item]) => [plain(key, seen), plain(item, seen)]);
  if (Array.isArray(value)) return value.map((item) => plain(item, seen));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item, seen)]));
}

describe('literalTraitKeys', () => {
  it('writes a computed key named by a string constant of the module as that string', () => {
    // Prepare
    const source = ['const _hH = "httpHeader";', 'const _e = "error";', 'export var A$ = [3, n0, _A, { [_hH]: _CT, [_e]: _c, [other]: 1 }, [], []];'].join(
      '\n',
    );

    // Act
    const rewritten = literalTraitKeys(source);

    // Assess
    expect(rewritten.split('\n')[2]).toBe('export var A$ = [3, n0, _A, { "httpHeader": _CT, "error": _c, [other]: 1 }, [], []];');
  });
});

describe.each(LITERAL_KEY_PACKAGES)("the bundles' copy of %s", (name) => {
  const copy = literalKeysCopy(PROJECT_ROOT, name);
  const original = join(PROJECT_ROOT, 'node_modules', name);

  it('keeps no computed trait key in its schemas', () => {
    // Act
    const text = readFileSync(join(copy, 'dist-es', 'schemas', 'schemas_0.js'), 'utf8');

    // Assess
    expect(readFileSync(join(original, 'dist-es', 'schemas', 'schemas_0.js'), 'utf8')).toMatch(/\{ \[_\w+\]:/);
    expect(text).not.toMatch(/\[_\w+\]:/);
  });

  it('exports the same schemas as the package', async () => {
    // Act
    const load = (dir: string) => import(pathToFileURL(join(dir, 'dist-es', 'schemas', 'schemas_0.js')).href) as Promise<Record<string, unknown>>;
    const [ours, theirs] = [await load(copy), await load(original)];

    // Assess
    expect(Object.keys(ours).length).toBeGreaterThan(400);
    expect(plain(ours)).toEqual(plain(theirs));
  });

  it("is the package's version, with the rest of its ES modules as they are", () => {
    // Act
    const version = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    const client = (dir: string) => readFileSync(join(dir, 'dist-es', 'S3Client.js'), 'utf8');

    // Assess
    expect(version(copy)).toBe(version(original));
    expect(client(copy)).toBe(client(original));
  });
});
