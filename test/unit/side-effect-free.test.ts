/** The copies of packages bundles use with `"sideEffects": false`: the package's own modules, the flag on every manifest. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { SIDE_EFFECT_FREE_PACKAGES, sideEffectFreeCopy, type SideEffectFreePackage } from '#infra/constructs/side-effect-free.ts';

const files = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
const manifest = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe.each(Object.keys(SIDE_EFFECT_FREE_PACKAGES) as SideEffectFreePackage[])("the bundles' copy of %s", (name) => {
  const copy = sideEffectFreeCopy(PROJECT_ROOT, name);
  const original = join(PROJECT_ROOT, 'node_modules', name);
  const folders = SIDE_EFFECT_FREE_PACKAGES[name];

  it('says sideEffects: false in every package.json, which esbuild reads from the one nearest a module', () => {
    // Act
    const manifests = files(copy).filter((file) => file.endsWith('package.json'));

    // Assess
    expect(manifests.length).toBeGreaterThan(1);
    for (const file of manifests) expect({ file, sideEffects: manifest(join(copy, file)).sideEffects }).toEqual({ file, sideEffects: false });
  });

  it("is the package's version, with its modules as they are", () => {
    // Act
    const { sideEffects: _flag, ...ours } = manifest(join(copy, 'package.json'));
    const modules = folders.flatMap((folder) =>
      files(join(original, folder))
        .filter((file) => file.endsWith('.js'))
        .map((file) => join(folder, file)),
    );

    // Assess
    expect(ours).toEqual(manifest(join(original, 'package.json')));
    expect(modules.length).toBeGreaterThan(50);
    for (const file of modules) expect(readFileSync(join(copy, file), 'utf8') === readFileSync(join(original, file), 'utf8')).toBe(true);
  });
});
