/** Painting a tweet card's parts: images, avatars, boxes, play marks, badges and text lines. */
import { fitText } from './canvas-text.ts';
import type { Rect } from '../model/layout.ts';
import { BOX_PAD, BOX_RADIUS, font, QUOTE_AVATAR, SMALL_LINE, SMALL_SIZE } from './tweet-card-layout.ts';
import type { LinkCardLayout, QuoteLayout, Word } from './tweet-card-layout.ts';
import { videoDuration } from '../model/tweet.ts';
import type { LinkCard, QuotedTweet, TweetPhoto } from '../model/tweet.ts';

export type CardTheme = 'light' | 'dark';

export const THEMES = {
  light: { background: '#ffffff', text: '#0f1419', muted: '#536471', link: '#1d9bf0', border: '#cfd9de', placeholder: '#eff3f4' },
  dark: { background: '#000000', text: '#e7e9ea', muted: '#71767b', link: '#1d9bf0', border: '#2f3336', placeholder: '#202327' },
} as const;

/** Like CSS object-fit: cover. */
function cover(ctx: CanvasRenderingContext2D, image: HTMLImageElement, rect: Rect): void {
  const scale = Math.max(rect.width / image.naturalWidth, rect.height / image.naturalHeight);
  const width = rect.width / scale;
  const height = rect.height / scale;
  ctx.drawImage(image, (image.naturalWidth - width) / 2, (image.naturalHeight - height) / 2, width, height, rect.x, rect.y, rect.width, rect.height);
}

export type Colours = (typeof THEMES)[CardTheme];

/** The image, or the theme's placeholder where it is missing or failed. */
export function fill(ctx: CanvasRenderingContext2D, image: HTMLImageElement | undefined, rect: Rect, colours: Colours): void {
  if (image) cover(ctx, image, rect);
  else {
    ctx.fillStyle = colours.placeholder;
    ctx.fillRect(rect.x, rect.y, rect.width, rect.height);
  }
}

export function avatarCircle(
  ctx: CanvasRenderingContext2D,
  image: HTMLImageElement | undefined,
  x: number,
  y: number,
  size: number,
  initial: string,
  colours: Colours,
): void {
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

export function outline(ctx: CanvasRenderingContext2D, rect: Rect, colour: string): void {
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.roundRect(rect.x + 0.5, rect.y + 0.5, rect.width - 1, rect.height - 1, BOX_RADIUS);
  ctx.stroke();
}

/** A play button in the middle of a poster, sized to it, and a GIF or duration label in its corner. */
export function playMark(ctx: CanvasRenderingContext2D, rect: Rect, photo: TweetPhoto): void {
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

export function verifiedBadge(ctx: CanvasRenderingContext2D, x: number, y: number, size: number): void {
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

export function drawLines(ctx: CanvasRenderingContext2D, lines: Word[][], x: number, top: number, size: number, lineHeight: number, colours: Colours): void {
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

/** "3:34 PM · Mar 29, 2023", as the site writes dates. */
export function tweetDate(date: Date): string {
  const parts = Object.fromEntries(DATE.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.hour}:${parts.minute} ${parts.dayPeriod} · ${parts.month} ${parts.day}, ${parts.year}`;
}

export function drawQuote(
  ctx: CanvasRenderingContext2D,
  quote: QuotedTweet,
  layout: QuoteLayout,
  avatar: HTMLImageElement | undefined,
  photo: HTMLImageElement | undefined,
  colours: Colours,
): void {
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

export function drawLinkCard(
  ctx: CanvasRenderingContext2D,
  card: LinkCard,
  layout: LinkCardLayout,
  image: HTMLImageElement | undefined,
  colours: Colours,
): void {
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
