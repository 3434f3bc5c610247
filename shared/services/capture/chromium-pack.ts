/**
 * Chromium as the stack packs it (infra/assets/chromium.ts): each file of @sparticuz/chromium's
 * brotli archives compressed again with zstd, which Node decompresses in a third of the CPU time.
 */
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createZstdDecompress } from 'node:zlib';

/** Beside the packed files: the files in order, the executable last. */
export const PACK_MANIFEST = 'manifest.json';
/** Where the executable lands in the folder it is unpacked into, as @sparticuz/chromium lays it out. */
export const PACKED_EXECUTABLE = 'chromium';

export interface PackedFile {
  /** Relative to the folder unpacked into; `<path>.zst` in the pack. */
  path: string;
  mode: number;
  /** Unpacked size. */
  bytes: number;
}

export interface PackManifest {
  files: PackedFile[];
}

/** Streams one packed file to `target` under a temporary name, renamed when whole. */
async function unpackFile(source: string, target: string, mode: number): Promise<void> {
  const partial = `${target}.${process.pid}.partial`;
  mkdirSync(dirname(target), { recursive: true });
  try {
    await pipeline(createReadStream(source, { highWaterMark: 2 ** 22 }), createZstdDecompress({ chunkSize: 2 ** 21 }), createWriteStream(partial, { mode }));
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/**
 * Unpacks `pack` into `into` (the libraries beside the executable, al2023/lib for Lambda's
 * runtime) and returns the executable's path. The executable takes its name last, so its presence
 * means a whole unpack: a container that finds it (an earlier invocation's) reuses it.
 */
export async function unpackChromium(pack: string, into: string): Promise<string> {
  const executable = join(into, PACKED_EXECUTABLE);
  if (existsSync(executable)) return executable;
  const { files } = JSON.parse(readFileSync(join(pack, PACK_MANIFEST), 'utf8')) as PackManifest;
  const last = files.at(-1);
  if (last?.path !== PACKED_EXECUTABLE) throw new Error(`${join(pack, PACK_MANIFEST)} does not end with ${PACKED_EXECUTABLE}`);
  const source = (file: PackedFile) => join(pack, `${file.path}.zst`);
  // All at once (the libraries are small), the executable under a name of its own until they are in place.
  const whole = `${executable}.${process.pid}.whole`;
  const results = await Promise.allSettled([
    unpackFile(source(last), whole, last.mode),
    ...files.slice(0, -1).map((file) => unpackFile(source(file), join(into, file.path), file.mode)),
  ]);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) {
    rmSync(whole, { force: true });
    throw failed.reason;
  }
  renameSync(whole, executable);
  return executable;
}
