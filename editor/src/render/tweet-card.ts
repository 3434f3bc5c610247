/**
 * A tweet drawn as a card the way embeds look, in canvas paths and text so it stays sharp at any
 * scale. Images come through the API's media proxy with CORS, so the canvas stays exportable.
 * Placement is in tweet-card-layout.ts, the painting of each part in tweet-card-paint.ts.
 */
import { fitText } from './canvas-text.ts';
import { loadCorsImage } from './sources.ts';
import type { Source } from './sources.ts';
import { AVATAR, cardLayout, font, LINE_HEIGHT, PAD, PHOTO_RADIUS, TEXT_SIZE, WIDTH } from './tweet-card-layout.ts';
import type { CardLayout } from './tweet-card-layout.ts';
import { avatarCircle, drawLines, drawLinkCard, drawQuote, fill, outline, playMark, THEMES, tweetDate, verifiedBadge } from './tweet-card-paint.ts';
import type { CardTheme, Colours } from './tweet-card-paint.ts';
import { cardImageUrls } from '../model/tweet.ts';
import type { TweetView } from '../model/tweet.ts';

export type { CardTheme } from './tweet-card-paint.ts';
export { tweetDate } from './tweet-card-paint.ts';

const COUNT = new Intl.NumberFormat('en-US');

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

type Images = (HTMLImageElement | undefined)[];

/** Avatar, name with its badge, and handle. */
function drawHeader(ctx: CanvasRenderingContext2D, view: TweetView, avatar: HTMLImageElement | undefined, colours: Colours): void {
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
}

/** The photos' block, clipped to its rounded corners, with play marks on posters. */
function drawPhotos(ctx: CanvasRenderingContext2D, view: TweetView, card: CardLayout, images: Images, colours: Colours): void {
  const area = card.photoArea;
  if (!area) return;
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

/** The date, and the counts under a rule when the tweet has them. */
function drawFooter(ctx: CanvasRenderingContext2D, view: TweetView, card: CardLayout, colours: Colours): void {
  ctx.fillStyle = colours.muted;
  ctx.font = font(15);
  if (view.createdAt) ctx.fillText(tweetDate(view.createdAt), PAD, card.footerTop + 15);
  if (view.likes === undefined && view.replies === undefined) return;
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

/** From already loaded images: `images` in `cardImageUrls` order, undefined where one is missing. */
export function makeCard(view: TweetView, theme: CardTheme, avatar: HTMLImageElement | undefined, images: Images): Source {
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
    origin: { kind: 'tweet', view, theme },
    draw(ctx, rect) {
      ctx.save();
      ctx.translate(rect.x, rect.y);
      ctx.scale(rect.width / WIDTH, rect.height / card.height);
      ctx.fillStyle = colours.background;
      ctx.fillRect(0, 0, WIDTH, card.height);
      ctx.textBaseline = 'alphabetic';
      drawHeader(ctx, view, avatar, colours);
      drawLines(ctx, card.lines, PAD, card.textTop, TEXT_SIZE, LINE_HEIGHT, colours);
      drawPhotos(ctx, view, card, images, colours);
      if (view.card && card.card) drawLinkCard(ctx, view.card, card.card, cardImage, colours);
      if (view.quote && card.quote) drawQuote(ctx, view.quote, card.quote, quoteAvatar, quotePhoto, colours);
      drawFooter(ctx, view, card, colours);
      ctx.restore();
    },
  };
}
