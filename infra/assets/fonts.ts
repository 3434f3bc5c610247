/** The capture fonts (docs/capture.md, "Fonts"): Noto faces from npm and a fontconfig file using them alone, on Lambda and locally alike. */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedBuild, inputsKey, packageFolder, packageVersion } from '#infra/assets/build-cache.ts';
import { FONT_CACHE_DIR, FONT_LINKS_ROOT, FONT_MANIFEST, SHIPPED_CACHE, linkFonts, writeFontLinks } from '#shared/services/capture/font-links.ts';
import { scriptArguments } from '#infra/assets/script-arguments.ts';

/** Where the capture function's layer puts the folder (Lambda mounts layers at /opt). */
export const FONTS_MOUNT = '/opt/fonts';

export interface FontSource {
  package: string;
  files: readonly string[];
  family: string;
  /** Its licence file in the package, shipped beside the fonts (OFL 1.1 asks for it). */
  licence: string;
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

/** Regular faces (Chromium draws bold and italic from them) and Noto Sans Bold; fallback in this order: SC before other CJK for unlabelled text. */
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
  // One file, as Google ships it: an emoji sequence is shaped within one font, never across files.
  expo('noto-color-emoji', 'Noto Color Emoji', 'emoji, in colour', { generic: 'emoji' }),
];

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const families = (names: readonly string[]) => names.map((name) => `<family>${xml(name)}</family>`).join('');

/** The fontconfig file: the fonts in `dir` only, generic families on them, the CJK face of the text's language first, colour emoji for emoji. */
export function fontsConf(options: { dir: string; cacheDir?: string }): string {
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
    `  <dir>${xml(options.dir)}</dir>`,
    `  <cachedir>${xml(options.cacheDir ?? FONT_CACHE_DIR)}</cachedir>`,
    // Every request ends at sans-serif, so any character falls back through the whole set.
    '  <match target="pattern"><edit name="family" mode="append_last"><string>sans-serif</string></edit></match>',
    '  <alias><family>sans</family><prefer><family>sans-serif</family></prefer></alias>',
    '  <alias><family>mono</family><prefer><family>monospace</family></prefer></alias>',
    ...langRules,
    // Chromium asks for emoji presentation (a sequence, U+FE0F, an emoji-style code point) in language
    // und-zsye: the colour font first, ahead of text fonts with the same code points.
    `  <match target="pattern"><test name="lang" compare="contains"><string>und-zsye</string></test><edit name="family" mode="prepend" binding="strong"><string>${xml(generic('emoji'))}</string></edit></match>`,
    `  <alias><family>sans-serif</family><prefer>${families(fallbacks)}</prefer></alias>`,
    `  <alias><family>serif</family><prefer>${families([generic('serif'), ...fallbacks])}</prefer></alias>`,
    `  <alias><family>monospace</family><prefer>${families([generic('monospace'), ...fallbacks])}</prefer></alias>`,
    `  <alias><family>emoji</family><prefer>${families([generic('emoji')])}</prefer></alias>`,
    '</fontconfig>',
    '',
  ].join('\n');
}

export const fontFileName = (file: string): string => basename(file);

// Bumped when the folder's layout changes, so old builds are not reused.
const FORMAT = 2;

/** Changes with the font packages' versions and the fontconfig file, and only then. */
export function fontSetKey(): string {
  const versions = FONT_SOURCES.map((source) => `${source.package}@${packageVersion(source.package)}`);
  return inputsKey([FORMAT, versions, fontsConf({ dir: '' })]);
}

/** The layer's asset hash: the font set, and the Chromium whose fontconfig wrote its cache. */
export const fontLayerKey = (): string => inputsKey([fontSetKey(), packageVersion('@sparticuz/chromium')]);

/** The links folder (font-links.ts) for the fonts at `destination`: named by the set and the place. */
export const fontLinksFor = (destination: string): string =>
  join(FONT_LINKS_ROOT, `${fontSetKey()}-${createHash('sha256').update(destination).digest('hex').slice(0, 12)}`);

function writeFontConf(folder: string, destination: string): void {
  const links = fontLinksFor(destination);
  writeFileSync(join(folder, 'fonts.conf'), fontsConf({ dir: links }));
  writeFileSync(join(folder, FONT_MANIFEST), `${JSON.stringify({ links })}\n`);
}

/** Writes the fonts, their licences, fonts.conf and the manifest into `folder` (created), to sit at `destination`. */
export function writeFontFolder(folder: string, destination: string): void {
  mkdirSync(join(folder, 'licences'), { recursive: true });
  for (const source of FONT_SOURCES) {
    const root = packageFolder(source.package);
    for (const file of source.files) cpSync(join(root, file), join(folder, fontFileName(file)));
    cpSync(join(root, source.licence), join(folder, 'licences', `${source.package.replace(/^@/, '').replace('/', '-')}.txt`));
  }
  writeFontConf(folder, destination);
}

const BUILDS = fileURLToPath(new URL('../../node_modules/.cache/easel-fonts/', import.meta.url));

/** The folder for this set of packages (FONTCONFIG_PATH of local runs and tests), built on first use; of concurrent builds the first rename wins. */
export function localFontFolder(): string {
  const folder = builtFontFolder();
  // Chromium launched by anything (tests, benches) finds the fonts where fonts.conf says.
  linkFonts(folder);
  return folder;
}

function builtFontFolder(): string {
  const folder = join(BUILDS, fontSetKey());
  return cachedBuild(folder, (staging) => writeFontFolder(staging, folder), { prune: true });
}

/** The layer's folder in `target`, mounted at `destination`, with the fontconfig cache made by the Chromium that reads it: a container reads, not scans. */
export async function buildFontLayer(target: string, destination = FONTS_MOUNT): Promise<void> {
  const local = localFontFolder();
  cpSync(local, target, { recursive: true });
  writeFontConf(target, destination);
  // The links point at the local copy while building: fontconfig's cache records their names, not the files'.
  const links = fontLinksFor(destination);
  const conf = mkdtempSync(join(tmpdir(), 'easel-font-cache-'));
  const cache = join(target, SHIPPED_CACHE);
  try {
    writeFontLinks(local, links, { replace: true });
    writeFileSync(join(conf, 'fonts.conf'), fontsConf({ dir: links, cacheDir: cache }));
    const [{ default: chromium }, { default: puppeteer }, { chromiumArgs }] = await Promise.all([
      import('@sparticuz/chromium'),
      import('puppeteer-core'),
      import('#shared/services/capture/browsers.ts'),
    ]);
    const browser = await puppeteer.launch({
      executablePath: await chromium.executablePath(),
      headless: 'shell',
      args: await chromiumArgs({ singleProcess: true }),
      env: { ...process.env, FONTCONFIG_PATH: conf },
    });
    try {
      const page = await browser.newPage();
      await page.setContent('<p>Aa 中 🚀</p>');
      await page.screenshot();
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(conf, { recursive: true, force: true });
    rmSync(links, { recursive: true, force: true });
  }
  if (!existsSync(cache) || readdirSync(cache).length === 0) throw new Error(`Chromium wrote no fontconfig cache into ${cache}`);
}

if (import.meta.main) {
  // The layer's bundling writes its folder there.
  const [target] = scriptArguments('node infra/assets/fonts.ts <folder>');
  await buildFontLayer(resolve(target!));
}
