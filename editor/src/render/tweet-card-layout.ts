/** Where each part of a tweet card goes, in the card's own pixels: wrapping, photo tiles, boxes. */
import { fitText } from './canvas-text.ts';
import type { Rect } from '../model/layout.ts';
import type { LinkCard, QuotedTweet, TextRun, TweetPhoto, TweetView } from '../model/tweet.ts';

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
export const WIDTH = 550;
export const PAD = 24;
export const AVATAR = 48;
export const TEXT_SIZE = 19;
export const LINE_HEIGHT = 27;
const PHOTO_GAP = 2;
export const PHOTO_RADIUS = 16;

/** Between the text, media, link card and quote. */
const GAP = 14;
export const BOX_RADIUS = 16;
export const BOX_PAD = 12;
export const SMALL_SIZE = 15;
export const SMALL_LINE = 20;
export const QUOTE_AVATAR = 20;
/** The site's summary thumbnail, and the 1.91:1 shape of a large card's image. */
const THUMB = 130;
const LARGE_IMAGE_RATIO = 1.91;

export interface Word {
  text: string;
  kind: TextRun['kind'];
  x: number;
}

export interface QuoteLayout {
  box: Rect;
  lines: Word[][];
  textTop: number;
  /** Flush with the box's sides and bottom, clipped by its corners. */
  photo?: Rect;
}

export interface LinkCardLayout {
  box: Rect;
  image?: Rect;
  /** Left edge and first line's top of the domain, title and description. */
  textX: number;
  textTop: number;
  domain?: string;
  title: string[];
  description: string[];
}

export interface CardLayout {
  height: number;
  lines: Word[][];
  textTop: number;
  photos: { rect: Rect; index: number }[];
  photoArea?: Rect;
  card?: LinkCardLayout;
  quote?: QuoteLayout;
  footerTop: number;
}

export function font(size: number, weight = 400): string {
  return `${weight} ${size}px ${FONT}`;
}

/** Very long words break anywhere. */
function wrap(ctx: CanvasRenderingContext2D, runs: TextRun[], width: number, size = TEXT_SIZE): Word[][] {
  ctx.font = font(size);
  const lines: Word[][] = [[]];
  let x = 0;
  const newLine = () => {
    lines.push([]);
    x = 0;
  };
  for (const run of runs) {
    for (const piece of run.text.split(/(\n|\s+)/)) {
      if (piece === '') continue;
      if (piece === '\n' || piece.includes('\n')) {
        for (let n = piece.split('\n').length - 1; n > 0; n -= 1) newLine();
        continue;
      }
      if (/^\s+$/.test(piece)) {
        if (x > 0) x += ctx.measureText(piece).width;
        continue;
      }
      let rest = piece;
      while (rest !== '') {
        const measured = ctx.measureText(rest).width;
        if (x + measured <= width) {
          lines.at(-1)!.push({ text: rest, kind: run.kind, x });
          x += measured;
          break;
        }
        if (x > 0 && measured <= width) {
          newLine();
          continue;
        }
        const chars = Array.from(rest);
        let count = 1;
        while (count < chars.length && x + ctx.measureText(chars.slice(0, count + 1).join('')).width <= width) count += 1;
        lines.at(-1)!.push({ text: chars.slice(0, count).join(''), kind: run.kind, x });
        rest = chars.slice(count).join('');
        newLine();
      }
    }
  }
  while (lines.length > 1 && lines.at(-1)!.length === 0) lines.pop();
  return lines;
}

/** At most `max` lines of plain text in the context's font, the last ending in an ellipsis when cut. */
function clampLines(ctx: CanvasRenderingContext2D, text: string | undefined, width: number, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of (text ?? '').split(/\s+/).filter(Boolean)) {
    const next = line === '' ? word : `${line} ${word}`;
    if (line === '' || ctx.measureText(next).width <= width) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  const kept = lines.slice(0, max);
  if (lines.length > max) kept[max - 1] = `${lines.slice(max - 1).join(' ')}…`;
  return kept.map((kept) => fitText(ctx, kept, width));
}

/** Tiles for 1–4 photos, as the site arranges them. */
function photoTiles(area: Rect, count: number): Rect[] {
  const { x, y, width, height } = area;
  const half = (width - PHOTO_GAP) / 2;
  const halfHeight = (height - PHOTO_GAP) / 2;
  if (count === 1) return [area];
  if (count === 2)
    return [
      { x, y, width: half, height },
      { x: x + half + PHOTO_GAP, y, width: half, height },
    ];
  if (count === 3)
    return [
      { x, y, width: half, height },
      { x: x + half + PHOTO_GAP, y, width: half, height: halfHeight },
      { x: x + half + PHOTO_GAP, y: y + halfHeight + PHOTO_GAP, width: half, height: halfHeight },
    ];
  return [0, 1, 2, 3].map((n) => ({
    x: x + (n % 2) * (half + PHOTO_GAP),
    y: y + Math.floor(n / 2) * (halfHeight + PHOTO_GAP),
    width: half,
    height: halfHeight,
  }));
}

/** A photo's height at `width`, its shape kept within `min`–`max` height per width. */
function photoHeight(photo: TweetPhoto, width: number, min: number, max: number): number {
  return Math.round(Math.min(max, Math.max(min, photo.height / photo.width)) * width);
}

function quoteLayout(ctx: CanvasRenderingContext2D, quote: QuotedTweet, x: number, top: number, width: number): QuoteLayout {
  const lines = quote.runs.length > 0 ? wrap(ctx, quote.runs, width - 2 * BOX_PAD, SMALL_SIZE) : [];
  let y = top + BOX_PAD + QUOTE_AVATAR;
  const textTop = y + 6;
  if (lines.length > 0) y = textTop + lines.length * SMALL_LINE;
  const first = quote.photos[0];
  let photo: Rect | undefined;
  if (first) {
    y += BOX_PAD;
    photo = { x, y, width, height: photoHeight(first, width, 0.4, 0.8) };
    y += photo.height;
  } else y += BOX_PAD;
  return { box: { x, y: top, width, height: y - top }, lines, textTop, photo };
}

function linkCardLayout(ctx: CanvasRenderingContext2D, card: LinkCard, x: number, top: number, width: number): LinkCardLayout {
  const large = card.layout === 'large' && card.image !== undefined;
  const thumb = card.layout === 'summary' && card.image !== undefined;
  const textX = x + (thumb ? THUMB : 0) + BOX_PAD;
  const textWidth = width - (thumb ? THUMB : 0) - 2 * BOX_PAD;
  ctx.font = font(SMALL_SIZE);
  const title = clampLines(ctx, card.title, textWidth, 2);
  const description = clampLines(ctx, card.description, textWidth, large ? 1 : 2);
  const textHeight = ((card.domain ? 1 : 0) + title.length + description.length) * SMALL_LINE;
  if (large) {
    const image = { x, y: top, width, height: Math.round(width / LARGE_IMAGE_RATIO) };
    const textTop = image.y + image.height + BOX_PAD;
    return { box: { x, y: top, width, height: image.height + textHeight + 2 * BOX_PAD }, image, textX, textTop, domain: card.domain, title, description };
  }
  const height = Math.max(thumb ? THUMB : 0, textHeight + 2 * BOX_PAD);
  return {
    box: { x, y: top, width, height },
    image: thumb ? { x, y: top, width: THUMB, height } : undefined,
    textX,
    // The text sits in the middle beside a taller thumbnail.
    textTop: top + (height - textHeight) / 2,
    domain: card.domain,
    title,
    description,
  };
}

export function cardLayout(ctx: CanvasRenderingContext2D, view: TweetView): CardLayout {
  const inner = WIDTH - 2 * PAD;
  const textTop = PAD + AVATAR + 14;
  const lines = view.runs.length > 0 ? wrap(ctx, view.runs, inner) : [];
  let y = textTop + lines.length * LINE_HEIGHT;
  let photoArea: Rect | undefined;
  const photos: CardLayout['photos'] = [];
  if (view.photos.length > 0) {
    y += GAP;
    const first = view.photos[0]!;
    // One photo keeps its shape within sensible bounds; several share a 16:9 block.
    const height = view.photos.length === 1 ? photoHeight(first, inner, 0.45, 1.25) : Math.round(inner * (9 / 16));
    photoArea = { x: PAD, y, width: inner, height };
    photos.push(...photoTiles(photoArea, view.photos.length).map((rect, index) => ({ rect, index })));
    y += height;
  }
  let card: LinkCardLayout | undefined;
  if (view.card) {
    card = linkCardLayout(ctx, view.card, PAD, y + GAP, inner);
    y = card.box.y + card.box.height;
  }
  let quote: QuoteLayout | undefined;
  if (view.quote) {
    quote = quoteLayout(ctx, view.quote, PAD, y + GAP, inner);
    y = quote.box.y + quote.box.height;
  }
  const footerTop = y + 18;
  const hasCounts = view.likes !== undefined || view.replies !== undefined;
  const height = Math.ceil(footerTop + 20 + (hasCounts ? 46 : 0) + PAD - 4);
  return { height, lines, textTop, photos, photoArea, card, quote, footerTop };
}
