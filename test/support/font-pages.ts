/**
 * Pages drawing one character of each script the capture fonts cover, and emoji sequences, each in a
 * box of its own, and the pixel checks the font test and bench judge a capture of them by.
 */
import sharp from 'sharp';
import { serveOnLoopback } from './loopback-server.ts';
import type { LoopbackServer } from './loopback-server.ts';

export interface FontProbe {
  id: string;
  text: string;
  lang: string;
  /** The capture font that must draw it. */
  family: string;
  /** CSS font-family of its box (default: the page's, none named). */
  generic?: 'serif' | 'monospace';
}

export const FONT_PROBES: readonly FontProbe[] = [
  { id: 'latin', text: 'Ag', lang: 'en', family: 'Noto Sans' },
  { id: 'greek', text: 'λ', lang: 'el', family: 'Noto Sans' },
  { id: 'cyrillic', text: 'Ж', lang: 'ru', family: 'Noto Sans' },
  { id: 'chinese-simplified', text: '骨', lang: 'zh-Hans', family: 'Noto Sans SC' },
  { id: 'chinese-traditional', text: '體', lang: 'zh-Hant', family: 'Noto Sans TC' },
  { id: 'japanese', text: 'あ', lang: 'ja', family: 'Noto Sans JP' },
  { id: 'korean', text: '한', lang: 'ko', family: 'Noto Sans KR' },
  { id: 'arabic', text: 'ع', lang: 'ar', family: 'Noto Sans Arabic' },
  { id: 'hebrew', text: 'א', lang: 'he', family: 'Noto Sans Hebrew' },
  { id: 'devanagari', text: 'ह', lang: 'hi', family: 'Noto Sans' },
  { id: 'bengali', text: 'ব', lang: 'bn', family: 'Noto Sans Bengali' },
  { id: 'tamil', text: 'த', lang: 'ta', family: 'Noto Sans Tamil' },
  { id: 'telugu', text: 'త', lang: 'te', family: 'Noto Sans Telugu' },
  { id: 'gujarati', text: 'ગ', lang: 'gu', family: 'Noto Sans Gujarati' },
  { id: 'gurmukhi', text: 'ਪ', lang: 'pa', family: 'Noto Sans Gurmukhi' },
  { id: 'kannada', text: 'ಕ', lang: 'kn', family: 'Noto Sans Kannada' },
  { id: 'malayalam', text: 'മ', lang: 'ml', family: 'Noto Sans Malayalam' },
  { id: 'thai', text: 'ก', lang: 'th', family: 'Noto Sans Thai' },
  { id: 'check-mark', text: '✓', lang: 'en', family: 'Noto Sans Symbols 2' },
  { id: 'emoji', text: '🚀', lang: 'en', family: 'Noto Color Emoji' },
  { id: 'serif', text: 'Ag', lang: 'en', family: 'Noto Serif', generic: 'serif' },
  { id: 'monospace', text: 'Ag', lang: 'en', family: 'Noto Sans Mono', generic: 'monospace' },
];

/** A code point no font has: its box shows what a missing glyph (.notdef) looks like. */
export const NOTDEF = '\u{10FFFD}';
/** Two runs whose widths match only in a monospace face. */
export const MONO_RUNS = { narrow: 'iiiiiiii', wide: 'WWWWWWWW' } as const;

const BOX = 100;
const COLUMNS = 10;
const FONT_SIZE = 56;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where box `index` sits in the page and in its 1920×1080 capture. */
export const boxAt = (index: number): Box => ({ left: (index % COLUMNS) * BOX, top: Math.floor(index / COLUMNS) * BOX, width: BOX, height: BOX });
export const NOTDEF_BOX = boxAt(FONT_PROBES.length);
/** One line each, below the probes. */
export const MONO_BOXES = { narrow: { left: 0, top: 400, width: 900, height: 80 }, wide: { left: 0, top: 500, width: 900, height: 80 } } as const;

const cell = (id: string, box: Box, text: string, lang: string, generic?: string) =>
  `<div id="${id}" style="left:${box.left}px;top:${box.top}px;width:${box.width}px;height:${box.height}px${generic ? `;font-family:${generic}` : ''}"><span lang="${lang}">${text}</span></div>`;

export const FONT_PAGE = [
  '<!doctype html><html><head><meta charset="utf-8"><style>',
  `body{margin:0;background:#fff;color:#000}div{position:absolute;font-size:${FONT_SIZE}px;line-height:${BOX}px;text-align:center;overflow:hidden}`,
  '.run{text-align:left;font-family:monospace;line-height:80px}',
  '</style></head><body>',
  ...FONT_PROBES.map((probe, index) => cell(probe.id, boxAt(index), probe.text, probe.lang, probe.generic)),
  cell('notdef', NOTDEF_BOX, NOTDEF, 'en'),
  ...Object.entries(MONO_RUNS).map(([name, text]) =>
    cell(`run-${name}`, MONO_BOXES[name as keyof typeof MONO_RUNS], text, 'en').replace('<div ', '<div class="run" '),
  ),
  '</body></html>',
].join('');

/** A page of Latin text only, as most pages are: a heading, paragraphs, bold, a line of code. */
export const LATIN_PAGE = [
  '<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:40px;font-size:18px">',
  '<h1>Release notes</h1>',
  ...Array.from(
    { length: 6 },
    (_, index) => `<p><b>Change ${index + 1}.</b> ${'The quick brown fox jumps over the lazy dog, then checks the capture once more. '.repeat(6)}</p>`,
  ),
  '<pre><code>const capture = await screenshot({ url, fullPage: true });</code></pre>',
  '</body></html>',
].join('');

export interface EmojiProbe {
  id: string;
  text: string;
  /** False where Noto draws the emoji in greys alone (its family silhouettes). */
  coloured: boolean;
}

/** Emoji that take more than one code point, and those a text font also has; the first is the reference single emoji. */
export const EMOJI_PROBES: readonly EmojiProbe[] = [
  { id: 'grinning', text: '\u{1F600}', coloured: true }, // 😀
  { id: 'thumbs-up-medium', text: '\u{1F44D}\u{1F3FD}', coloured: true }, // 👍🏽
  { id: 'family', text: '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', coloured: false }, // 👨‍👩‍👧
  { id: 'astronaut', text: '\u{1F9D1}\u200D\u{1F680}', coloured: true }, // 🧑‍🚀
  { id: 'technologist-dark', text: '\u{1F469}\u{1F3FE}\u200D\u{1F4BB}', coloured: true }, // 👩🏾‍💻
  { id: 'couple-heart', text: '\u{1F469}\u200D\u2764\uFE0F\u200D\u{1F468}', coloured: true }, // 👩‍❤️‍👨
  { id: 'rainbow-flag', text: '\u{1F3F3}\uFE0F\u200D\u{1F308}', coloured: true }, // 🏳️‍🌈
  { id: 'flag-fr', text: '\u{1F1EB}\u{1F1F7}', coloured: true }, // 🇫🇷
  { id: 'flag-jp', text: '\u{1F1EF}\u{1F1F5}', coloured: true }, // 🇯🇵
  { id: 'flag-scotland', text: '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}', coloured: true }, // 🏴󠁧󠁢󠁳󠁣󠁴󠁿
  { id: 'keycap-1', text: '1\uFE0F\u20E3', coloured: true }, // 1️⃣
  { id: 'keycap-hash', text: '#\uFE0F\u20E3', coloured: true }, // #️⃣
  { id: 'heart', text: '\u2764\uFE0F', coloured: true }, // ❤️
  { id: 'smiling', text: '\u263A\uFE0F', coloured: true }, // ☺️
  { id: 'victory', text: '\u270C\uFE0F', coloured: true }, // ✌️
  { id: 'sun', text: '\u2600\uFE0F', coloured: true }, // ☀️
  { id: 'credit-card', text: '\u{1F4B3}', coloured: true }, // 💳
  { id: 'lock', text: '\u{1F512}', coloured: true }, // 🔒
];

/** Three boxes a row, so that the page fits a phone's 375 × 667 viewport; a box holds three emoji widths. */
const EMOJI_BOX = { width: 120, height: 70 };

/** Where emoji box `index` sits, in CSS pixels times `scale` (the capture's device scale). */
export const emojiBoxAt = (index: number, scale = 1): Box => ({
  left: (index % 3) * EMOJI_BOX.width * scale,
  top: Math.floor(index / 3) * EMOJI_BOX.height * scale,
  width: EMOJI_BOX.width * scale,
  height: EMOJI_BOX.height * scale,
});

export const EMOJI_PAGE = [
  '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><style>',
  `body{margin:0;background:#fff;color:#000}div{position:absolute;font-size:40px;line-height:${EMOJI_BOX.height}px;text-align:center;overflow:hidden}`,
  '</style></head><body>',
  ...EMOJI_PROBES.map((probe, index) => cell(probe.id, emojiBoxAt(index), probe.text, 'en')),
  '</body></html>',
].join('');

export type FontPages = LoopbackServer;

/** Serves FONT_PAGE at /scripts, LATIN_PAGE at /latin and EMOJI_PAGE at /emoji on 127.0.0.1. */
export function startFontPages(): Promise<FontPages> {
  const pages: Record<string, string> = { '/scripts': FONT_PAGE, '/latin': LATIN_PAGE, '/emoji': EMOJI_PAGE };
  return serveOnLoopback((req, res) => {
    const page = pages[req.url ?? ''];
    if (page === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
}

/** What a box of a capture holds. */
export interface BoxPixels {
  /** Pixels darker than the white page. */
  ink: number;
  /** Pixels whose channels differ by more than 60: colour, not grey. */
  coloured: number;
  /** Leftmost and rightmost column with ink (-1 when none). */
  inkLeft: number;
  inkRight: number;
  raw: Buffer;
}

/** The RGB pixels of `box` in a PNG. */
export async function boxPixels(png: Uint8Array, box: Box): Promise<BoxPixels> {
  const raw = await sharp(png).extract(box).removeAlpha().raw().toBuffer();
  let ink = 0;
  let coloured = 0;
  let inkLeft = -1;
  let inkRight = -1;
  for (let i = 0; i < raw.length; i += 3) {
    const [r, g, b] = [raw[i]!, raw[i + 1]!, raw[i + 2]!];
    if (Math.min(r, g, b) >= 224) continue;
    ink += 1;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured += 1;
    const x = (i / 3) % box.width;
    if (inkLeft < 0 || x < inkLeft) inkLeft = x;
    inkRight = Math.max(inkRight, x);
  }
  return { ink, coloured, inkLeft, inkRight, raw };
}

/** Share of pixels that differ by more than 32 in some channel: 0 for identical boxes. */
export function difference(a: BoxPixels, b: BoxPixels): number {
  let differing = 0;
  for (let i = 0; i < a.raw.length; i += 3) {
    if (Math.abs(a.raw[i]! - b.raw[i]!) > 32 || Math.abs(a.raw[i + 1]! - b.raw[i + 1]!) > 32 || Math.abs(a.raw[i + 2]! - b.raw[i + 2]!) > 32) differing += 1;
  }
  return differing / (a.raw.length / 3);
}
