import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FiltersEngine } from '@ghostery/adblocker';
import { FONTS_MOUNT, FONT_SOURCES, fontFileName, fontLinksFor, fontsConf } from '#infra/assets/fonts.ts';
import { ROUTES } from '#shared/routes.ts';
import { AD_ENGINE_FILE } from '#shared/services/capture/ad-blocking.ts';
import { AUTOCONSENT_FILE } from '#shared/services/capture/consent-asset.ts';
import { FONT_MANIFEST, SHIPPED_CACHE } from '#shared/services/capture/font-links.ts';
import { CHROMIUM_PACK_FOLDER } from '#infra/assets/chromium.ts';
import { PACK_MANIFEST, PACKED_EXECUTABLE } from '#shared/services/capture/chromium-pack.ts';
import type { PackManifest } from '#shared/services/capture/chromium-pack.ts';
import { bundleRowAsset, removeCdkOutdirs } from '../support/cdk.ts';

/** Lambda's limit on a function's code and layers together, unzipped. */
const LAMBDA_UNZIPPED_LIMIT = 250 * 2 ** 20;

function bytesUnder(folder: string): number {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

// Bundles the capture function for real (esbuild plus an npm install of its nodeModules), as
// `cdk synth` does, and looks inside the assets Lambda would receive: its code and its fonts layer.
describe('the capture function bundle', () => {
  let asset: string;
  let fontsLayer: string;

  beforeAll(() => {
    // Prepare + Act
    asset = bundleRowAsset(ROUTES.capturePage);
    const outdir = dirname(asset);
    const layers = readdirSync(outdir).filter((name) => name.startsWith('asset.') && existsSync(join(outdir, name, 'fonts', 'fonts.conf')));
    if (layers.length !== 1) throw new Error(`Expected one fonts layer asset in ${outdir}, found ${layers.length}`);
    fontsLayer = join(outdir, layers[0]!);
  }, 180_000);

  afterAll(removeCdkOutdirs);

  it("ships Chromium as the zstd pack beside index.mjs, and @sparticuz/chromium's code without its brotli files", () => {
    // Prepare
    const chromium = join(asset, 'node_modules', '@sparticuz', 'chromium');
    const manifest = JSON.parse(readFileSync(join(asset, CHROMIUM_PACK_FOLDER, PACK_MANIFEST), 'utf8')) as PackManifest;

    // Assess
    expect(JSON.parse(readFileSync(join(chromium, 'package.json'), 'utf8'))).toMatchObject({ name: '@sparticuz/chromium', version: '153.0.0' });
    expect(existsSync(join(chromium, 'build', 'index.js'))).toBe(true);
    expect(existsSync(join(chromium, 'bin'))).toBe(false);
    expect(manifest.files.at(-1)?.path).toBe(PACKED_EXECUTABLE);
    for (const file of manifest.files) expect(existsSync(join(asset, CHROMIUM_PACK_FOLDER, `${file.path}.zst`)), file.path).toBe(true);
    // An x86-64 ELF (e_machine 0x3e) once unpacked, as Lambda's x86_64 needs.
    const elf = zstdDecompressSync(readFileSync(join(asset, CHROMIUM_PACK_FOLDER, `${PACKED_EXECUTABLE}.zst`))).subarray(0, 20);
    expect([elf.subarray(0, 4).toString('latin1'), elf.readUInt16LE(18)]).toEqual(['\x7fELF', 0x3e]);
  });

  it('imports @sparticuz/chromium from node_modules instead of bundling it, and bundles puppeteer-core', () => {
    // Prepare
    const code = readFileSync(join(asset, 'index.mjs'), 'utf8');

    // Assess
    expect(code).toMatch(/from\s*"@sparticuz\/chromium"/);
    // A bundled copy would look for its bin folder next to index.mjs, where there is none.
    expect(code).not.toContain('setGraphicsMode');
    expect(code).not.toMatch(/from\s*"puppeteer-core"/);
    expect(JSON.parse(readFileSync(join(asset, 'package.json'), 'utf8'))).toEqual({
      dependencies: { '@sparticuz/chromium': '153.0.0', sharp: expect.any(String) },
    });
  });

  it('ships sharp with its linux-x64 binary, for recompressing a capture too large to answer', () => {
    // Prepare
    const code = readFileSync(join(asset, 'index.mjs'), 'utf8');

    // Assess
    expect(code).toMatch(/from\s*"sharp"|import\("sharp"\)/);
    expect(existsSync(join(asset, 'node_modules', '@img', 'sharp-linux-x64', 'package.json'))).toBe(true);
    expect(existsSync(join(asset, 'node_modules', '@img', 'sharp-libvips-linux-x64', 'package.json'))).toBe(true);
  });

  it("ships the ad engine and autoconsent's standalone build beside index.mjs, where clean captures read them", () => {
    // Prepare
    const engine = readFileSync(join(asset, AD_ENGINE_FILE));

    // Assess
    expect(FiltersEngine.deserialize(engine).match).toBeTypeOf('function');
    expect(readFileSync(join(asset, AUTOCONSENT_FILE), 'utf8')).toContain('autoconsentStandalone');
    expect(readFileSync(join(asset, 'index.mjs'), 'utf8')).toContain(AD_ENGINE_FILE);
  });

  it('ships the capture fonts in a layer whose fonts/ folder holds every face, its licences, fonts.conf and its cache', () => {
    // Prepare
    const fonts = join(fontsLayer, 'fonts');

    // Assess
    expect(readdirSync(fontsLayer)).toEqual(['fonts']);
    const links = fontLinksFor(FONTS_MOUNT);
    expect(readFileSync(join(fonts, 'fonts.conf'), 'utf8')).toBe(fontsConf({ dir: links }));
    expect(JSON.parse(readFileSync(join(fonts, FONT_MANIFEST), 'utf8'))).toEqual({ links });
    expect(readdirSync(join(fonts, SHIPPED_CACHE)).filter((name) => /-le64\.cache-\d+$/.test(name))).toHaveLength(1);
    for (const source of FONT_SOURCES) {
      for (const file of source.files) {
        // TrueType outlines (0x00010000): FreeType in this Chromium reads no WOFF2.
        expect(readFileSync(join(fonts, fontFileName(file))).readUInt32BE(0), `${source.family}: ${file}`).toBe(0x00010000);
      }
    }
    expect(readdirSync(join(fonts, 'licences'))).toHaveLength(FONT_SOURCES.length);
    expect(
      readdirSync(join(fonts, 'licences'))
        .map((file) => readFileSync(join(fonts, 'licences', file), 'utf8'))
        .every((text) => text.includes('SIL Open Font License, Version 1.1')),
    ).toBe(true);
  });

  it("stays with its fonts layer under Lambda's 250 MB unzipped limit", () => {
    // Assess
    expect(bytesUnder(asset) + bytesUnder(fontsLayer)).toBeLessThan(LAMBDA_UNZIPPED_LIMIT);
  });
});
