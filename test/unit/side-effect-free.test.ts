/** The copies of packages bundles use with `"sideEffects": false`: the package's own modules, the flag on every manifest. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { sideEffectFreeCopy, sideEffectFreePackages } from '#infra/constructs/side-effect-free.ts';

const files = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
const manifest = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const PACKAGES = sideEffectFreePackages(PROJECT_ROOT);
/** Where package-lock.json installs each package: an alias names one copy, so another version beside it would be swapped out. */
const installed = Object.keys((JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> }).packages);

describe('sideEffectFreePackages', () => {
  it('names @simplewebauthn/server and the ASN.1 schema packages it brings, each installed once', () => {
    // Act
    const names = PACKAGES.map((pkg) => pkg.name);

    // Assess
    expect(names).toEqual(expect.arrayContaining(['@simplewebauthn/server', '@peculiar/asn1-schema', '@peculiar/asn1-x509', '@peculiar/asn1-ecc']));
    for (const name of names)
      expect({ name, places: installed.filter((path) => path.endsWith(`node_modules/${name}`)) }).toEqual({ name, places: [`node_modules/${name}`] });
  });
});

describe.each(PACKAGES.map((pkg) => [pkg.name, pkg] as const))("the bundles' copy of %s", (_name, pkg) => {
  const copy = sideEffectFreeCopy(PROJECT_ROOT, pkg);
  const original = join(PROJECT_ROOT, 'node_modules', pkg.name);

  it('says sideEffects: false in every package.json, which esbuild reads from the one nearest a module', () => {
    // Act
    const manifests = files(copy).filter((file) => file.endsWith('package.json'));

    // Assess
    expect(manifests).toContain('package.json');
    for (const file of manifests) expect({ file, sideEffects: manifest(join(copy, file)).sideEffects }).toEqual({ file, sideEffects: false });
  });

  it("is the package's version, with its modules as they are", () => {
    // Act
    const { sideEffects: _flag, ...ours } = manifest(join(copy, 'package.json'));
    const modules = pkg.folders.flatMap((folder) =>
      files(join(original, folder))
        .filter((file) => file.endsWith('.js'))
        .map((file) => join(folder, file)),
    );

    // Assess
    expect(ours).toEqual(manifest(join(original, 'package.json')));
    expect(modules.length).toBeGreaterThan(0);
    for (const file of modules) expect(readFileSync(join(copy, file), 'utf8') === readFileSync(join(original, file), 'utf8')).toBe(true);
  });
});
