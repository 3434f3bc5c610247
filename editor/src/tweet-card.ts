/**
 * A tweet drawn as a card the way embeds look, in canvas paths and text so it stays sharp at any
 * scale. Images come through the API's media proxy with CORS, so the canvas stays exportable.
 */
import { fitText } from './canvas-text.ts';
import type { Rect } from './layout.ts';
import { loadCorsImage } from './sources.ts';
import type { Source } from './sources.ts';
import { cardImageUrls, videoDuration } from './tweet.ts';
import type { LinkCard, QuotedTweet, TextRun, TweetPhoto, TweetView } from './tweet.ts';

export type CardTheme = 'light' | 'dark';

const THEMES = {
  light: { background: '#ffffff', text: '#0f1419', muted: '#536471', link: '#1d9bf0', border: '#cfd9de', placeholder: '#eff3f4' },
  dark: { background: '#000000', text: '#e7e9ea', muted: '#71767b', link: '#1d9bf0', border: '#2f3336', placeholder: '#202327' },
} as const;

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const WIDTH = 550;
const PAD = 24;
const AVATAR = 48;
const TEXT_SIZE = 19;
const LINE_HEIGHT = 27;
const PHOTO_GAP = 2;
const PHOTO_RADIUS = 16;

/** Between the text, media, link card and quote. */
const GAP = 14;
const BOX_RADIUS = 16;
const BOX_PAD = 12;
const SMALL_SIZE = 15;
const SMALL_LINE = 20;
const QUOTE_AVATAR = 20;
/** The site's summary thumbnail, and the 1.91:1 shape of a large card's image. */
const THUMB = 130;
const LARGE_IMAGE_RATIO = 1.91;

interface Word {
  text: string;
  kind: TextRun['kind'];
  x: number;
}

interface QuoteLayout {
  box: Rect;
  lines: Word[][];
  textTop: number;
  /** Flush with the box's sides and bottom, clipped by its corners. */
  photo?: Rect;
}

interface LinkCardLayout {
  box: Rect;
  image?: Rect;
  /** Left edge and first line's top of the domain, title and description. */
  textX: number;
  textTop: number;
  domain?: string;
  title: string[];
  description: string[];
}

interface CardLayout {
  height: number;
  lines: Word[][];
  textTop: number;
  photos: { rect: Rect; index: number }[];
  photoArea?: Rect;
  card?: LinkCardLayout;
  quote?: QuoteLayout;
  footerTop: number;
}

function font(size: number, weight = 400): string {
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
  if (count === 2) return [
    { x, y, width: half, height },
    { x: x + half + PHOTO_GAP, y, width: half, height },
  ];
  if (count === 3) return [
    { x, y, width: half, height },
    { x: x + half + PHOTO_GAP, y, width: half, height: halfHeight },
    { x: x + half + PHOTO_GAP, y: y + halfHeight + PHOTO_GAP, width: half, height: halfHeight },
  ];
  return [0, 1, 2, 3].map((n) => ({ x: x + (n % 2) * (half + PHOTO_GAP), y: y + Math.floor(n / 2) * (halfHeight + PHOTO_GAP), width: half, height: halfHeight }));
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

function cardLayout(ctx: CanvasRenderingContext2D, view: TweetView): CardLayout {
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
    photoTiles(photoArea, view.photos.length).forEach((rect, index) => photos.push({ rect, index }));
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

/** Like CSS object-fit: cover. */
function cover(ctx: CanvasRenderingContext2D, image: HTMLImageElement, rect: Rect): void {
  const scale = Math.max(rect.width / image.naturalWidth, rect.height / image.naturalHeight);
  const width = rect.width / scale;
  const height = rect.height / scale;
  ctx.drawImage(image, (image.naturalWidth - width) / 2, (image.naturalHeight - height) / 2, width, height, rect.x, rect.y, rect.width, rect.height);
}

type Colours = (typeof THEMES)[CardTheme];

/** The image, or the theme's placeholder where it is missing or failed. */
function fill(ctx: CanvasRenderingContext2D, image: HTMLImageElement | undefined, rect: Rect, colours: Colours): void {
  if (image) cover(ctx, image, rect);
  else {
    ctx.fillStyle = colours.placeholder;
    ctx.fillRect(rect.x, rect.y, rect.width, rect.height);
  }
}

function avatarCircle(ctx: CanvasRenderingContext2D, image: HTMLImageElement | undefined, x: number, y: number, size: number, initial: string, colours: Colours): void {
  ctx.save();
  ctx.beginPath();
  ctx.arc(x + size / 2, y + size / 2, size / 2, 0, Math.PI * 2);
  ctx.clip();
  if (image) cover(ctx, image, { x, y, width: size, height: size });
  else {
    ctx.fillStyle = colours.placeholder;
    ctx.fillRect(x, y, size, size);
    ctx.fillStyle = colours.muted;
    ctx.font = font(Math.round(size * 0.46), 700);
    ctx.textAlign = 'center';
    ctx.fillText(initial.charAt(0).toUpperCase(), x + size / 2, y + size * 0.67);
    ctx.textAlign = 'start';
  }
  ctx.restore();
}

function outline(ctx: CanvasRenderingContext2D, rect: Rect, colour: string): void {
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.roundRect(rect.x + 0.5, rect.y + 0.5, rect.width - 1, rect.height - 1, BOX_RADIUS);
  ctx.stroke();
}

/** A play button in the middle of a poster, sized to it, and a GIF or duration label in its corner. */
function playMark(ctx: CanvasRenderingContext2D, rect: Rect, photo: TweetPhoto): void {
  const size = Math.min(68, Math.max(28, Math.min(rect.width, rect.height) * 0.22));
  const cx = rect.x + rect.width / 2;
  const cy = rect.y + rect.height / 2;
  ctx.save();
  ctx.fillStyle = '#1d9bf0';
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = size * 0.06;
  ctx.beginPath();
  ctx.arc(cx, cy, size / 2, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = '#ffffff';
  ctx.beginPath();
  // Nudged right so the triangle looks centred, as the eye weighs its mass, not its box.
  ctx.moveTo(cx - size * 0.13, cy - size * 0.2);
  ctx.lineTo(cx + size * 0.22, cy);
  ctx.lineTo(cx - size * 0.13, cy + size * 0.2);
  ctx.closePath();
  ctx.fill();
  const label = photo.kind === 'gif' ? 'GIF' : photo.durationMs !== undefined ? videoDuration(photo.durationMs) : undefined;
  if (label) {
    const textSize = Math.min(13, Math.max(10, Math.min(rect.width, rect.height) * 0.06));
    ctx.font = font(textSize, 700);
    const width = ctx.measureText(label).width + textSize * 0.8;
    const height = textSize * 1.5;
    const inset = Math.min(12, textSize * 0.8);
    ctx.fillStyle = 'rgba(0, 0, 0, 0.77)';
    ctx.beginPath();
    ctx.roundRect(rect.x + inset, rect.y + rect.height - inset - height, width, height, 4);
    ctx.fill();
    ctx.fillStyle = '#ffffff';
    ctx.fillText(label, rect.x + inset + textSize * 0.4, rect.y + rect.height - inset - height * 0.3);
  }
  ctx.restore();
}

function verifiedBadge(ctx: CanvasRenderingContext2D, x: number, y: number, size: number): void {
  ctx.save();
  ctx.fillStyle = '#1d9bf0';
  ctx.beginPath();
  ctx.arc(x + size / 2, y + size / 2, size / 2, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = size * 0.14;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  ctx.moveTo(x + size * 0.28, y + size * 0.52);
  ctx.lineTo(x + size * 0.44, y + size * 0.68);
  ctx.lineTo(x + size * 0.73, y + size * 0.36);
  ctx.stroke();
  ctx.restore();
}

function drawLines(ctx: CanvasRenderingContext2D, lines: Word[][], x: number, top: number, size: number, lineHeight: number, colours: Colours): void {
  ctx.font = font(size);
  lines.forEach((line, index) => {
    const baseline = top + index * lineHeight + size;
    for (const word of line) {
      ctx.fillStyle = word.kind === 'text' ? colours.text : colours.link;
      ctx.fillText(word.text, x + word.x, baseline);
    }
  });
}

const DATE = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', month: 'short', day: 'numeric', year: 'numeric' });
const SHORT_DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const COUNT = new Intl.NumberFormat('en-US');

/** "3:34 PM · Mar 29, 2023", as the site writes dates. */
export function tweetDate(date: Date): string {
  const parts = Object.fromEntries(DATE.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.hour}:${parts.minute} ${parts.dayPeriod} · ${parts.month} ${parts.day}, ${parts.year}`;
}

function drawQuote(ctx: CanvasRenderingContext2D, quote: QuotedTweet, layout: QuoteLayout, avatar: HTMLImageElement | undefined, photo: HTMLImageElement | undefined, colours: Colours): void {
  const { box } = layout;
  const left = box.x + BOX_PAD;
  avatarCircle(ctx, avatar, left, box.y + BOX_PAD, QUOTE_AVATAR, quote.name || quote.handle || '?', colours);
  const baseline = box.y + BOX_PAD + 15;
  let x = left + QUOTE_AVATAR + 6;
  const right = box.x + box.width - BOX_PAD;
  ctx.fillStyle = colours.text;
  ctx.font = font(SMALL_SIZE, 700);
  const name = fitText(ctx, quote.name, (right - x) * 0.6);
  ctx.fillText(name, x, baseline);
  x += ctx.measureText(name).width + 4;
  if (quote.verified) {
    verifiedBadge(ctx, x, box.y + BOX_PAD + 2, 16);
    x += 20;
  }
  ctx.fillStyle = colours.muted;
  ctx.font = font(SMALL_SIZE);
  const handle = `@${quote.handle}${quote.createdAt ? ` · ${SHORT_DATE.format(quote.createdAt)}` : ''}`;
  ctx.fillText(fitText(ctx, handle, right - x), x, baseline);
  drawLines(ctx, layout.lines, left, layout.textTop, SMALL_SIZE, SMALL_LINE, colours);
  const first = quote.photos[0];
  if (layout.photo && first) {
    ctx.save();
    ctx.beginPath();
    ctx.roundRect(box.x, box.y, box.width, box.height, BOX_RADIUS);
    ctx.clip();
    fill(ctx, photo, layout.photo, colours);
    if (first.kind) playMark(ctx, layout.photo, first);
    ctx.restore();
    ctx.fillStyle = colours.border;
    ctx.fillRect(box.x, layout.photo.y, box.width, 1);
  }
  outline(ctx, box, colours.border);
}

function drawLinkCard(ctx: CanvasRenderingContext2D, card: LinkCard, layout: LinkCardLayout, image: HTMLImageElement | undefined, colours: Colours): void {
  const { box } = layout;
  if (layout.image) {
    ctx.save();
    ctx.beginPath();
    ctx.roundRect(box.x, box.y, box.width, box.height, BOX_RADIUS);
    ctx.clip();
    fill(ctx, image, layout.image, colours);
    if (card.image?.kind) playMark(ctx, layout.image, card.image);
    ctx.restore();
    ctx.fillStyle = colours.border;
    if (card.layout === 'large') ctx.fillRect(box.x, layout.image.y + layout.image.height, box.width, 1);
    else ctx.fillRect(layout.image.x + layout.image.width, box.y, 1, box.height);
  }
  ctx.font = font(SMALL_SIZE);
  let baseline = layout.textTop + SMALL_SIZE;
  const width = box.x + box.width - BOX_PAD - layout.textX;
  if (layout.domain) {
    ctx.fillStyle = colours.muted;
    ctx.fillText(fitText(ctx, layout.domain, width), layout.textX, baseline);
    baseline += SMALL_LINE;
  }
  ctx.fillStyle = colours.text;
  for (const line of layout.title) {
    ctx.fillText(line, layout.textX, baseline);
    baseline += SMALL_LINE;
  }
  ctx.fillStyle = colours.muted;
  for (const line of layout.description) {
    ctx.fillText(line, layout.textX, baseline);
    baseline += SMALL_LINE;
  }
  outline(ctx, box, colours.border);
}

/** "Tweet by @a with a video, quoting @b, linking to react.dev, dark card", for people who cannot see it. */
function describe(view: TweetView, theme: CardTheme): string {
  const videos = view.photos.filter((photo) => photo.kind === 'video').length;
  const gifs = view.photos.filter((photo) => photo.kind === 'gif').length;
  const stills = view.photos.length - videos - gifs;
  const media = [
    stills > 0 ? `${stills} ${stills === 1 ? 'photo' : 'photos'}` : '',
    videos > 0 ? (videos === 1 ? 'a video' : `${videos} videos`) : '',
    gifs > 0 ? (gifs === 1 ? 'a GIF' : `${gifs} GIFs`) : '',
  ].filter(Boolean);
  const parts = [`Tweet by @${view.handle}${media.length > 0 ? ` with ${media.join(' and ')}` : ''}`];
  if (view.quote) parts.push(`quoting @${view.quote.handle}`);
  if (view.card) parts.push(`linking to ${view.card.domain ?? view.card.title}`);
  return `${parts.join(', ')}, ${theme} card`;
}

export interface TweetSourceResult {
  source: Source;
  /** Kept to redraw the card in the other theme; undefined where one failed. */
  avatar?: HTMLImageElement;
  /** Every other image, in `cardImageUrls` order; undefined where one failed or there is none. */
  photos: (HTMLImageElement | undefined)[];
  /** Drawn as placeholders. */
  failed: number;
}

/** `proxy` maps a media URL to its proxied URL on the API. */
export async function tweetSource(view: TweetView, theme: CardTheme, proxy: (url: string) => string): Promise<TweetSourceResult> {
  const load = (url: string | undefined) => (url === undefined ? Promise.resolve(undefined) : loadCorsImage(proxy(url)));
  const settled = await Promise.allSettled([load(view.avatarUrl), ...cardImageUrls(view).map(load)]);
  const images = settled.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  const failed = settled.filter((result) => result.status === 'rejected').length;
  const [avatar, ...photos] = images;
  return { source: makeCard(view, theme, avatar, photos), avatar, photos, failed };
}

/** From already loaded images: `images` in `cardImageUrls` order, undefined where one is missing. */
export function makeCard(view: TweetView, theme: CardTheme, avatar: HTMLImageElement | undefined, images: (HTMLImageElement | undefined)[]): Source {
  const colours = THEMES[theme];
  const measure = document.createElement('canvas').getContext('2d')!;
  const card = cardLayout(measure, view);
  const count = view.photos.length;
  const [quoteAvatar, quotePhoto, cardImage] = [images[count], images[count + 1], images[count + 2]];
  return {
    kind: 'tweet',
    width: WIDTH,
    height: card.height,
    title: view.handle ? `x.com/${view.handle}` : 'x.com',
    description: describe(view, theme),
    draw(ctx, rect) {
      ctx.save();
      ctx.translate(rect.x, rect.y);
      ctx.scale(rect.width / WIDTH, rect.height / card.height);
      ctx.fillStyle = colours.background;
      ctx.fillRect(0, 0, WIDTH, card.height);
      ctx.textBaseline = 'alphabetic';

      avatarCircle(ctx, avatar, PAD, PAD, AVATAR, view.name || view.handle || '?', colours);

      const nameX = PAD + AVATAR + 12;
      const nameWidth = WIDTH - nameX - PAD - (view.verified ? 24 : 0);
      ctx.fillStyle = colours.text;
      ctx.font = font(16, 700);
      const name = fitText(ctx, view.name, nameWidth);
      ctx.fillText(name, nameX, PAD + 20);
      if (view.verified) verifiedBadge(ctx, nameX + ctx.measureText(name).width + 4, PAD + 5, 18);
      ctx.fillStyle = colours.muted;
      ctx.font = font(15);
      ctx.fillText(fitText(ctx, `@${view.handle}`, WIDTH - nameX - PAD), nameX, PAD + 42);

      drawLines(ctx, card.lines, PAD, card.textTop, TEXT_SIZE, LINE_HEIGHT, colours);

      if (card.photoArea) {
        const area = card.photoArea;
        ctx.save();
        ctx.beginPath();
        ctx.roundRect(area.x, area.y, area.width, area.height, PHOTO_RADIUS);
        ctx.clip();
        for (const { rect, index } of card.photos) {
          fill(ctx, images[index], rect, colours);
          const photo = view.photos[index]!;
          if (photo.kind) playMark(ctx, rect, photo);
        }
        ctx.restore();
        outline(ctx, area, colours.border);
      }
      if (view.card && card.card) drawLinkCard(ctx, view.card, card.card, cardImage, colours);
      if (view.quote && card.quote) drawQuote(ctx, view.quote, card.quote, quoteAvatar, quotePhoto, colours);

      ctx.fillStyle = colours.muted;
      ctx.font = font(15);
      if (view.createdAt) ctx.fillText(tweetDate(view.createdAt), PAD, card.footerTop + 15);
      if (view.likes !== undefined || view.replies !== undefined) {
        const top = card.footerTop + 32;
        ctx.fillStyle = colours.border;
        ctx.fillRect(PAD, top, WIDTH - 2 * PAD, 1);
        let x = PAD;
        for (const [count, label] of [
          [view.likes, view.likes === 1 ? 'Like' : 'Likes'],
          [view.replies, view.replies === 1 ? 'Reply' : 'Replies'],
        ] as const) {
          if (count === undefined) continue;
          const value = COUNT.format(count);
          ctx.font = font(15, 700);
          ctx.fillStyle = colours.text;
          ctx.fillText(value, x, top + 31);
          x += ctx.measureText(value).width + 5;
          ctx.font = font(15);
          ctx.fillStyle = colours.muted;
          ctx.fillText(label, x, top + 31);
          x += ctx.measureText(label).width + 24;
        }
      }
      ctx.restore();
    },
  };
}
