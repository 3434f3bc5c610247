// wawoff2 ships no typings.
declare module 'wawoff2' {
  /** A WOFF2 file to the TrueType/OpenType font it holds. */
  export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
}
