/**
 * The capture fonts (docs/capture.md, "Fonts"): Noto faces from npm packages and a fontconfig file
 * that uses them alone. Built once per set of package versions; the capture layer and the local
 * runtime both point FONTCONFIG_PATH at the folder, so Chromium draws the same glyphs everywhere.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the capture function's layer puts the folder (Lambda mounts layers at /opt). */
export const FONTS_MOUNT = '/opt/fonts';
/** fontconfig's cache: the one writable place on Lambda; a fresh container scans the fonts once. */
export const FONT_CACHE_DIR = '/tmp/easel-fonts-cache';

export interface FontSource {
  package: string;
  /** Files of the package: TTFs are copied, WOFF2 decompressed (FreeType here reads no WOFF2). */
  files: readonly string[];
  family: string;
  /** Its licence file in the package, shipped beside the fonts (OFL 1.1 asks for it). */
  licence: string;
  /** What it draws. */
  covers: string;
  /** Languages (fontconfig's names) for which it comes before the other CJK faces. */
  langs?: readonly string[];
  /** The family it stands for (sans-serif when absent). */
  generic?: 'serif' | 'monospace' | 'emoji';
}

const expo = (name: string, family: string, covers: string, extra: Partial<FontSource> = {}): FontSource => {
  const file = family.replace(/ /g, '');
  return { package: `@expo-google-fonts/${name}`, files: [`400Regular/${file}_400Regular.ttf`], family, licence: 'LICENSE_FONT', covers, ...extra };
};

/**
 * Regular faces only (Chromium draws bold and italic from them), plus Noto Sans Bold for Latin
 * headings. Fallback follows this order: Latin, then symbols, then simplified Chinese ahead of
 * the other CJK faces for text without a language.
 */
export const FONT_SOURCES: readonly FontSource[] = [
  expo('noto-sans', 'Noto Sans', 'Latin, Greek, Cyrillic, Devanagari', { files: ['400Regular/NotoSans_400Regular.ttf', '700Bold/NotoSans_700Bold.ttf'] }),
  expo('noto-serif', 'Noto Serif', 'serif Latin, Greek, Cyrillic', { generic: 'serif' }),
  expo('noto-sans-mono', 'Noto Sans Mono', 'monospace Latin, Greek, Cyrillic', { generic: 'monospace' }),
  expo('noto-sans-symbols', 'Noto Sans Symbols', 'arrows, technical and other symbols'),
  expo('noto-sans-symbols-2', 'Noto Sans Symbols 2', 'check marks, stars, shapes, dingbats'),
  expo('noto-sans-sc', 'Noto Sans SC', 'Chinese (simplified), Han without a language', { langs: ['zh-cn', 'zh-sg', 'zh-hans'] }),
  expo('noto-sans-tc', 'Noto Sans TC', 'Chinese (traditional)', { langs: ['zh-tw', 'zh-hk', 'zh-mo', 'zh-hant'] }),
  expo('noto-sans-jp', 'Noto Sans JP', 'Japanese', { langs: ['ja'] }),
  expo('noto-sans-kr', 'Noto Sans KR', 'Korean', { langs: ['ko'] }),
  expo('noto-sans-arabic', 'Noto Sans Arabic', 'Arabic, Persian, Urdu'),
  expo('noto-sans-hebrew', 'Noto Sans Hebrew', 'Hebrew'),
  expo('noto-sans-bengali', 'Noto Sans Bengali', 'Bengali, Assamese'),
  expo('noto-sans-tamil', 'Noto Sans Tamil', 'Tamil'),
  expo('noto-sans-telugu', 'Noto Sans Telugu', 'Telugu'),
  expo('noto-sans-gujarati', 'Noto Sans Gujarati', 'Gujarati'),
  expo('noto-sans-gurmukhi', 'Noto Sans Gurmukhi', 'Gurmukhi (Punjabi)'),
  expo('noto-sans-kannada', 'Noto Sans Kannada', 'Kannada'),
  expo('noto-sans-malayalam', 'Noto Sans Malayalam', 'Malayalam'),
  expo('noto-sans-thai', 'Noto Sans Thai', 'Thai'),
  {
    package: '@infolektuell/noto-color-emoji',
    // Google Fonts' unicode-range slices of the COLRv1 build: vector, a fifth of the bitmap font's bytes.
    files: Array.from({ length: 11 }, (_, index) => `files/${index}.woff2`),
    family: 'Noto Color Emoji',
    licence: 'LICENSE',
    covers: 'emoji, in colour',
    generic: 'emoji',
  },
];

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const families = (names: readonly string[]) => names.map((name) => `<family>${xml(name)}</family>`).join('');

/**
 * The fontconfig file: this folder's fonts only (`dir` absent: the folder holding the file), the
 * CSS generic families on them, and the CJK face of the text's language ahead of the others.
 */
export function fontsConf(options: { dir?: string; cacheDir?: string } = {}): string {
  const fallbacks = FONT_SOURCES.filter((source) => source.generic === undefined || source.generic === 'emoji').map((source) => source.family);
  const generic = (name: string) => FONT_SOURCES.find((source) => source.generic === name)!.family;
  const langRules = FONT_SOURCES.flatMap((source) =>
    (source.langs ?? []).map(
      (lang) =>
        `  <match target="pattern"><test name="lang" compare="contains"><string>${lang}</string></test><test name="family"><string>sans-serif</string></test>` +
        `<edit name="family" mode="prepend"><string>${xml(source.family)}</string></edit></match>`,
    ),
  );
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    '<!-- Written by infra/assets/fonts.ts. -->',
    '<fontconfig>',
    options.dir === undefined ? '  <dir prefix="relative">.</dir>' : `  <dir>${xml(options.dir)}</dir>`,
    `  <cachedir>${xml(options.cacheDir ?? FONT_CACHE_DIR)}</cachedir>`,
    // Every request ends at sans-serif, so any character falls back through the whole set.
    '  <match target="pattern"><edit name="family" mode="append_last"><string>sans-serif</string></edit></match>',
    '  <alias><family>sans</family><prefer><family>sans-serif</family></prefer></alias>',
    '  <alias><family>mono</family><prefer><family>monospace</family></prefer></alias>',
    ...langRules,
    `  <alias><family>sans-serif</family><prefer>${families(fallbacks)}</prefer></alias>`,
    `  <alias><family>serif</family><prefer>${families([generic('serif'), ...fallbacks])}</prefer></alias>`,
    `  <alias><family>monospace</family><prefer>${families([generic('monospace'), ...fallbacks])}</prefer></alias>`,
    `  <alias><family>emoji</family><prefer>${families([generic('emoji')])}</prefer></alias>`,
    '</fontconfig>',
    '',
  ].join('\n');
}

const require = createRequire(import.meta.url);
const packageRoot = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** The name a source file gets in the folder. */
export function fontFileName(source: FontSource, file: string): string {
  return file.endsWith('.woff2') ? `${source.family.replace(/ /g, '')}-${basename(file, '.woff2')}.ttf` : basename(file);
}

// Bumped when the folder's layout changes, so old builds are not reused.
const FORMAT = 1;

/** Changes with the font packages' versions and the fontconfig file, and only then. */
export function fontSetKey(): string {
  const versions = FONT_SOURCES.map((source) => `${source.package}@${(JSON.parse(readFileSync(join(packageRoot(source.package), 'package.json'), 'utf8')) as { version: string }).version}`);
  return createHash('sha256').update(JSON.stringify([FORMAT, versions, fontsConf()])).digest('hex').slice(0, 16);
}

/** Writes the fonts, their licences and fonts.conf into `folder` (created). */
export async function writeFontFolder(folder: string): Promise<void> {
  const { decompress } = await import('wawoff2');
  mkdirSync(join(folder, 'licences'), { recursive: true });
  for (const source of FONT_SOURCES) {
    const root = packageRoot(source.package);
    for (const file of source.files) {
      const bytes = readFileSync(join(root, file));
      writeFileSync(join(folder, fontFileName(source, file)), file.endsWith('.woff2') ? await decompress(bytes) : bytes);
    }
    cpSync(join(root, source.licence), join(folder, 'licences', `${source.package.replace(/^@/, '').replace('/', '-')}.txt`));
  }
  writeFileSync(join(folder, 'fonts.conf'), fontsConf());
}

const BUILDS = fileURLToPath(new URL('../../node_modules/.cache/easel-fonts/', import.meta.url));

/**
 * The folder for this set of packages (FONTCONFIG_PATH for the local runtime and tests), built on
 * first use; older builds are removed. Concurrent callers each build and the first rename wins.
 */
export async function localFontFolder(): Promise<string> {
  const key = fontSetKey();
  const folder = join(BUILDS, key);
  if (existsSync(join(folder, 'fonts.conf'))) return folder;
  mkdirSync(BUILDS, { recursive: true });
  const staging = mkdtempSync(join(BUILDS, 'staging-'));
  try {
    await writeFontFolder(staging);
    if (!existsSync(folder)) renameSync(staging, folder);
  } catch (error) {
    if (!existsSync(join(folder, 'fonts.conf'))) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  for (const name of readdirSync(BUILDS)) if (name !== key && !name.startsWith('staging-')) rmSync(join(BUILDS, name), { recursive: true, force: true });
  return folder;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // `node infra/assets/fonts.ts <folder>`: the layer's bundling copies the built folder there.
  const target = process.argv[2];
  if (!target) {
    process.stderr.write('usage: node infra/assets/fonts.ts <folder>\n');
    process.exit(2);
  }
  cpSync(await localFontFolder(), resolve(target), { recursive: true });
}
