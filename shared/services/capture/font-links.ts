/** Font links under /tmp with time 0, as the cache built at bundling recorded, so a fresh container reads it instead of scanning. */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** fontconfig's writable cache folder; the shipped cache is copied in. */
export const FONT_CACHE_DIR = '/tmp/easel-fonts-cache';
export const FONT_LINKS_ROOT = '/tmp/easel-fonts';
/** Beside fonts.conf: `{ "links": … }`, the folder its `<dir>` names. */
export const FONT_MANIFEST = 'fonts.json';
/** Beside fonts.conf: the fontconfig cache built for the links folder. */
export const SHIPPED_CACHE = 'cache';

/** Links every face of `folder` from `links` with the time the cache expects; an existing `links` is kept (a racer made the same) unless `replace`. */
export function writeFontLinks(folder: string, links: string, options: { replace?: boolean } = {}): void {
  mkdirSync(dirname(links), { recursive: true });
  const staging = mkdtempSync(`${links}.staging-`);
  try {
    for (const name of readdirSync(folder)) if (name.endsWith('.ttf')) symlinkSync(join(folder, name), join(staging, name));
    utimesSync(staging, 0, 0);
    if (options.replace) rmSync(links, { recursive: true, force: true });
    try {
      renameSync(staging, links);
    } catch (error) {
      if (!existsSync(links)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Once per container, before Chromium starts: the links folder fonts.conf reads, and the shipped cache where fontconfig looks. */
export function linkFonts(folder: string): void {
  const manifest = join(folder, FONT_MANIFEST);
  if (!existsSync(manifest)) return;
  const { links } = JSON.parse(readFileSync(manifest, 'utf8')) as { links: string };
  // Its name holds the folder's path and the font set, so an existing one is this one.
  if (!existsSync(links)) writeFontLinks(folder, links);
  const shipped = join(folder, SHIPPED_CACHE);
  if (!existsSync(shipped)) return;
  mkdirSync(FONT_CACHE_DIR, { recursive: true });
  for (const name of readdirSync(shipped)) {
    const target = join(FONT_CACHE_DIR, name);
    if (existsSync(target)) continue;
    // Whole or absent: a Chromium starting elsewhere must not read half a cache.
    const partial = `${target}.${process.pid}.partial`;
    copyFileSync(join(shipped, name), partial);
    renameSync(partial, target);
  }
}
