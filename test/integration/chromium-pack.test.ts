/**
 * Chromium's zstd pack (infra/assets/chromium.ts) and its unpacking at cold start
 * (shared/services/capture/chromium-pack.ts): the same files @sparticuz/chromium unpacks, a browser
 * that starts from them single-process, and no half-unpacked executable left to reuse.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer from 'puppeteer-core';
import sharp from 'sharp';
import { builtChromiumPack } from '#infra/assets/chromium.ts';
import { chromiumArgs } from '#shared/services/capture/browsers.ts';
import { PACK_MANIFEST, PACKED_EXECUTABLE, unpackChromium } from '#shared/services/capture/chromium-pack.ts';
import type { PackManifest } from '#shared/services/capture/chromium-pack.ts';

let pack: string;
let manifest: PackManifest;
const scratch: string[] = [];

/** An empty folder, as /tmp is in a new container. */
function emptyTmp(): string {
  const folder = mkdtempSync(join(tmpdir(), 'easel-unpack-'));
  scratch.push(folder);
  return folder;
}

beforeAll(async () => {
  // Prepare: built once per @sparticuz/chromium version under node_modules/.cache.
  pack = await builtChromiumPack();
  manifest = JSON.parse(readFileSync(join(pack, PACK_MANIFEST), 'utf8')) as PackManifest;
}, 240_000);

afterAll(() => {
  for (const folder of scratch) rmSync(folder, { recursive: true, force: true });
});

describe('the Chromium pack', () => {
  it("holds the executable last, SwiftShader beside it and Lambda's al2023 libraries, each as zstd", () => {
    // Assess
    const paths = manifest.files.map((file) => file.path);
    expect(paths.at(-1)).toBe(PACKED_EXECUTABLE);
    expect(paths).toEqual(expect.arrayContaining(['libGLESv2.so', 'libEGL.so', 'libvk_swiftshader.so', 'libvulkan.so.1', 'al2023/lib/libnss3.so']));
    expect(paths.some((path) => path.startsWith('fonts'))).toBe(false);
    for (const file of manifest.files) expect(readFileSync(join(pack, `${file.path}.zst`)).readUInt32LE(0), file.path).toBe(0xfd2fb528);
    expect(manifest.files.at(-1)).toMatchObject({ mode: 0o700, bytes: expect.any(Number) });
    expect(manifest.files.at(-1)!.bytes).toBeGreaterThan(100 * 2 ** 20);
  });
});

describe('unpackChromium', () => {
  it('unpacks every file whole, with its mode, and the executable starts single-process and draws a page', async () => {
    // Prepare
    const into = emptyTmp();

    // Act
    const executable = await unpackChromium(pack, into);

    // Assess
    expect(executable).toBe(join(into, PACKED_EXECUTABLE));
    for (const file of manifest.files) {
      const stat = statSync(join(into, file.path));
      expect({ path: file.path, bytes: stat.size, mode: stat.mode & 0o777 }).toEqual({ path: file.path, bytes: file.bytes, mode: file.mode });
    }
    expect(readdirSync(into).filter((name) => name.includes('.partial') || name.includes('.whole'))).toEqual([]);
    const browser = await puppeteer.launch({ executablePath: executable, headless: 'shell', args: await chromiumArgs({ singleProcess: true }) });
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 64, height: 48 });
      await page.setContent('<body style="margin:0;background:rgb(0,128,255)"></body>');
      const { data } = await sharp(await page.screenshot({ type: 'png' }))
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([...data.subarray(0, 3)]).toEqual([0, 128, 255]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('reuses an executable already there without reading the pack', async () => {
    // Prepare
    const into = emptyTmp();
    writeFileSync(join(into, PACKED_EXECUTABLE), 'unpacked earlier');

    // Act
    const executable = await unpackChromium(join(into, 'no-such-pack'), into);

    // Assess
    expect(readFileSync(executable, 'utf8')).toBe('unpacked earlier');
  });

  it('leaves no executable when a file of the pack is broken, so the next unpack starts over', async () => {
    // Prepare: a copy of the pack whose SwiftShader library is cut short.
    const broken = emptyTmp();
    cpSync(pack, broken, { recursive: true });
    const library = join(broken, 'libvk_swiftshader.so.zst');
    writeFileSync(library, readFileSync(library).subarray(0, 1000));
    const into = emptyTmp();

    // Act
    const failed = await unpackChromium(broken, into).then(
      () => undefined,
      (error: unknown) => error,
    );

    // Assess
    expect(failed).toBeInstanceOf(Error);
    expect(existsSync(join(into, PACKED_EXECUTABLE))).toBe(false);
    expect(readdirSync(into).filter((name) => name.includes('.partial') || name.includes('.whole'))).toEqual([]);
    await expect(unpackChromium(pack, into)).resolves.toBe(join(into, PACKED_EXECUTABLE));
  }, 120_000);
});
