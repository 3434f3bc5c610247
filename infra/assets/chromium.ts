/**
 * `node infra/assets/chromium.ts <folder>`: @sparticuz/chromium's brotli files unpacked at build
 * time and each file packed again with zstd, for the capture function to unpack at cold start
 * (shared/services/capture/chromium-pack.ts). Built once per package version under node_modules/.cache.
 */
import { cpSync, createReadStream, createWriteStream, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { constants, createBrotliDecompress, createZstdCompress } from 'node:zlib';
import { extract } from 'tar-fs';
import { cachedBuildAsync, inputsKey, packageFolder, packageVersion } from '#infra/assets/build-cache.ts';
import { PACK_MANIFEST, PACKED_EXECUTABLE } from '#shared/services/capture/chromium-pack.ts';
import type { PackManifest, PackedFile } from '#shared/services/capture/chromium-pack.ts';
import { scriptArguments } from '#infra/assets/script-arguments.ts';

/** Where the capture function finds the pack: beside its bundle, in /var/task. */
export const CHROMIUM_PACK_FOLDER = 'chromium';
/** Decompresses as fast as higher levels (docs/performance.md, "Cold capture") and packs in seconds. */
const LEVEL = 3;
/**
 * The package's archives and where @sparticuz/chromium unpacks each, relative to /tmp. Its Open Sans
 * (fonts.tar.br) is left out: the capture fonts' layer replaces it.
 */
const ARCHIVES = [
  { file: 'chromium.br', into: PACKED_EXECUTABLE, tar: false },
  { file: 'swiftshader.tar.br', into: '.', tar: true },
  { file: 'al2023.tar.br', into: 'al2023', tar: true },
] as const;
const FORMAT = 1;

const CHROMIUM = '@sparticuz/chromium';

async function unpackArchives(bin: string, raw: string): Promise<void> {
  for (const archive of ARCHIVES) {
    const target = join(raw, archive.into);
    mkdirSync(archive.tar ? target : raw, { recursive: true });
    await pipeline(
      createReadStream(join(bin, archive.file)),
      createBrotliDecompress(),
      archive.tar ? extract(target) : createWriteStream(target, { mode: 0o700 }),
    );
  }
}

/** Packs every file of `raw` into `pack`; the executable comes last in the manifest. */
async function packFiles(raw: string, pack: string): Promise<PackManifest> {
  const paths = readdirSync(raw, { recursive: true, encoding: 'utf8' }).filter((path) => statSync(join(raw, path)).isFile());
  const ordered = [...paths.filter((path) => path !== PACKED_EXECUTABLE).sort(), PACKED_EXECUTABLE];
  const files: PackedFile[] = [];
  for (const path of ordered) {
    const { mode, size } = statSync(join(raw, path));
    mkdirSync(dirname(join(pack, path)), { recursive: true });
    await pipeline(
      createReadStream(join(raw, path)),
      createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: LEVEL } }),
      createWriteStream(join(pack, `${path}.zst`)),
    );
    files.push({ path: relative(raw, join(raw, path)), mode: mode & 0o777, bytes: size });
  }
  return { files };
}

const BUILDS = fileURLToPath(new URL('../../node_modules/.cache/easel-chromium/', import.meta.url));

/** The pack for the installed @sparticuz/chromium, built on first use; older builds are removed. */
export async function builtChromiumPack(): Promise<string> {
  const key = inputsKey([FORMAT, packageVersion(CHROMIUM), LEVEL, ARCHIVES]);
  return cachedBuildAsync(
    join(BUILDS, key),
    async (pack) => {
      // Unpacked beside the pack, and gone before it is renamed into place.
      const raw = join(pack, '.raw');
      await unpackArchives(join(packageFolder(CHROMIUM), 'bin'), raw);
      writeFileSync(join(pack, PACK_MANIFEST), `${JSON.stringify(await packFiles(raw, pack), null, 1)}\n`);
      rmSync(raw, { recursive: true, force: true });
    },
    { prune: true },
  );
}

/** Copies the pack into `<folder>/chromium`, where the capture function's CHROMIUM_PACK points. */
export async function writeChromiumPack(folder: string): Promise<string> {
  const target = join(folder, CHROMIUM_PACK_FOLDER);
  cpSync(await builtChromiumPack(), target, { recursive: true });
  return target;
}

if (import.meta.main) {
  const [folder] = scriptArguments('node infra/assets/chromium.ts <folder>');
  await writeChromiumPack(resolve(folder!));
}
