// wawoff2 ships no typings.
declare module 'wawoff2' {
  /** A WOFF2 file to the TrueType/OpenType font it holds. */
  export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
}

// tar-fs ships no typings.
declare module 'tar-fs' {
  import type { Writable } from 'node:stream';
  /** A stream of a tar archive that writes its entries under `folder`. */
  export function extract(folder: string): Writable;
}
