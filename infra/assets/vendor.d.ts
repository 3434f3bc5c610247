// tar-fs ships no typings.
declare module 'tar-fs' {
  import type { Writable } from 'node:stream';
  /** A stream of a tar archive that writes its entries under `folder`. */
  export function extract(folder: string): Writable;
}
