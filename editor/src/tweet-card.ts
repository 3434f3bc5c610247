/**
 * A tweet drawn as a card the way embeds look, in canvas paths and text so it stays sharp at any
 * scale. Images come through the API's media proxy with CORS, so the canvas stays exportable.
 */
import { fitText } from './canvas-text.ts';
import type { Rect } from './layout.ts';
import { loadCorsImage } from './sources.ts';
import type { Source } from './sources.ts';
import type { TextRun, TweetView } from './tweet.ts';

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

interface Word {
  text: string;
  kind: TextRun['kind'];
  x: number;
}

interface CardLayout {
  height: number;
  lines: Word[][];
  textTop: number;
  photos: { rect: Rect; index: number }[];
  photoArea?: Rect;
  footerTop: number;
}

function font(size: number, weight = 400): string {
  return `${weight} ${size}px ${FONT}`;
}

/** Very long words break anywhere. */
function wrap(ctx: CanvasRenderingContext2D, runs: TextRun[], width: number): Word[][] {
  ctx.font = font(TEXT_SIZE);
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

function cardLayout(ctx: CanvasRenderingContext2D, view: TweetView): CardLayout {
  const inner = WIDTH - 2 * PAD;
  const textTop = PAD + AVATAR + 14;
  const lines = view.runs.length > 0 ? wrap(ctx, view.runs, inner) : [];
  let y = textTop + lines.length * LINE_HEIGHT;
  let photoArea: Rect | undefined;
  const photos: CardLayout['photos'] = [];
  if (view.photos.length > 0) {
    y += 14;
    const first = view.photos[0]!;
    // One photo keeps its shape within sensible bounds; several share a 16:9 block.
    const height = view.photos.length === 1 ? Math.round(Math.min(1.25, Math.max(0.45, first.height / first.width)) * inner) : Math.round(inner * (9 / 16));
    photoArea = { x: PAD, y, width: inner, height };
    photoTiles(photoArea, view.photos.length).forEach((rect, index) => photos.push({ rect, index }));
    y += height;
  }
  const footerTop = y + 18;
  const hasCounts = view.likes !== undefined || view.replies !== undefined;
  const height = Math.ceil(footerTop + 20 + (hasCounts ? 46 : 0) + PAD - 4);
  return { height, lines, textTop, photos, photoArea, footerTop };
}

/** Like CSS object-fit: cover. */
function cover(ctx: CanvasRenderingContext2D, image: HTMLImageElement, rect: Rect): void {
  const scale = Math.max(rect.width / image.naturalWidth, rect.height / image.naturalHeight);
  const width = rect.width / scale;
  const height = rect.height / scale;
  ctx.drawImage(image, (image.naturalWidth - width) / 2, (image.naturalHeight - height) / 2, width, height, rect.x, rect.y, rect.width, rect.height);
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

const DATE = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', month: 'short', day: 'numeric', year: 'numeric' });
const COUNT = new Intl.NumberFormat('en-US');

/** "3:34 PM · Mar 29, 2023", as the site writes dates. */
export function tweetDate(date: Date): string {
  const parts = Object.fromEntries(DATE.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.hour}:${parts.minute} ${parts.dayPeriod} · ${parts.month} ${parts.day}, ${parts.year}`;
}

export interface TweetSourceResult {
  source: Source;
  /** Kept to redraw the card in the other theme; undefined where one failed. */
  avatar?: HTMLImageElement;
  photos: (HTMLImageElement | undefined)[];
  /** Drawn as placeholders. */
  failed: number;
}

/** `proxy` maps a media URL to its proxied URL on the API. */
export async function tweetSource(view: TweetView, theme: CardTheme, proxy: (url: string) => string): Promise<TweetSourceResult> {
  const load = (url: string | undefined) => (url === undefined ? Promise.resolve(undefined) : loadCorsImage(proxy(url)));
  const settled = await Promise.allSettled([load(view.avatarUrl), ...view.photos.map((photo) => load(photo.url))]);
  const images = settled.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  const failed = settled.filter((result) => result.status === 'rejected').length;
  const [avatar, ...photos] = images;
  return { source: makeCard(view, theme, avatar, photos), avatar, photos, failed };
}

/** From already loaded images (undefined where one is missing). */
export function makeCard(view: TweetView, theme: CardTheme, avatar: HTMLImageElement | undefined, photos: (HTMLImageElement | undefined)[]): Source {
  const colours = THEMES[theme];
  const measure = document.createElement('canvas').getContext('2d')!;
  const card = cardLayout(measure, view);
  return {
    kind: 'tweet',
    width: WIDTH,
    height: card.height,
    title: view.handle ? `x.com/${view.handle}` : 'x.com',
    description: `Tweet by @${view.handle}${view.photos.length ? ` with ${view.photos.length} ${view.photos.length === 1 ? 'photo' : 'photos'}` : ''}, ${theme} card`,
    draw(ctx, rect) {
      ctx.save();
      ctx.translate(rect.x, rect.y);
      ctx.scale(rect.width / WIDTH, rect.height / card.height);
      ctx.fillStyle = colours.background;
      ctx.fillRect(0, 0, WIDTH, card.height);
      ctx.textBaseline = 'alphabetic';

      ctx.save();
      ctx.beginPath();
      ctx.arc(PAD + AVATAR / 2, PAD + AVATAR / 2, AVATAR / 2, 0, Math.PI * 2);
      ctx.clip();
      if (avatar) cover(ctx, avatar, { x: PAD, y: PAD, width: AVATAR, height: AVATAR });
      else {
        ctx.fillStyle = colours.placeholder;
        ctx.fillRect(PAD, PAD, AVATAR, AVATAR);
        ctx.fillStyle = colours.muted;
        ctx.font = font(22, 700);
        ctx.textAlign = 'center';
        ctx.fillText((view.name || view.handle || '?').charAt(0).toUpperCase(), PAD + AVATAR / 2, PAD + AVATAR / 2 + 8);
        ctx.textAlign = 'start';
      }
      ctx.restore();

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

      ctx.font = font(TEXT_SIZE);
      card.lines.forEach((line, index) => {
        const baseline = card.textTop + index * LINE_HEIGHT + TEXT_SIZE;
        for (const word of line) {
          ctx.fillStyle = word.kind === 'text' ? colours.text : colours.link;
          ctx.fillText(word.text, PAD + word.x, baseline);
        }
      });

      if (card.photoArea) {
        const area = card.photoArea;
        ctx.save();
        ctx.beginPath();
        ctx.roundRect(area.x, area.y, area.width, area.height, PHOTO_RADIUS);
        ctx.clip();
        for (const { rect, index } of card.photos) {
          const photo = photos[index];
          if (photo) cover(ctx, photo, rect);
          else {
            ctx.fillStyle = colours.placeholder;
            ctx.fillRect(rect.x, rect.y, rect.width, rect.height);
          }
        }
        ctx.restore();
        ctx.strokeStyle = colours.border;
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.roundRect(area.x + 0.5, area.y + 0.5, area.width - 1, area.height - 1, PHOTO_RADIUS);
        ctx.stroke();
      }

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
