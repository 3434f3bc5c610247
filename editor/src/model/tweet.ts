/**
 * What the tweet card shows, from the syndication payload. Its shape is not part of the contract,
 * so a missing field is left out of the card rather than failing it.
 */

export interface TextRun {
  text: string;
  kind: 'text' | 'link' | 'mention' | 'hashtag';
}

export interface TweetPhoto {
  url: string;
  width: number;
  height: number;
  /** A video's or GIF's poster, drawn with a play mark; absent for a photo. */
  kind?: 'video' | 'gif';
  durationMs?: number;
}

/** The preview of a linked page (summary and summary_large_image cards, and players). */
export interface LinkCard {
  /** `large`: the image above the text; `summary`: a square thumbnail beside it. */
  layout: 'large' | 'summary';
  title: string;
  description?: string;
  /** As the site shows it: the vanity URL, else the page's host. */
  domain?: string;
  image?: TweetPhoto;
}

/** A quoted tweet as the site shows it inside another: no counts, card or nested quote. */
export type QuotedTweet = Pick<TweetView, 'id' | 'name' | 'handle' | 'verified' | 'avatarUrl' | 'runs' | 'photos' | 'createdAt'>;

export interface TweetView {
  id: string;
  name: string;
  handle: string;
  verified: boolean;
  /** The 400×400 variant, sharp at 3×. */
  avatarUrl?: string;
  runs: TextRun[];
  /** Photos and video or GIF posters; at most four, as on the site. */
  photos: TweetPhoto[];
  createdAt?: Date;
  likes?: number;
  replies?: number;
  quote?: QuotedTweet;
  card?: LinkCard;
}

/** The status id of an id or a tweet URL on any x.com or twitter.com variant. */
export function tweetIdFrom(input: string): string | undefined {
  const value = input.trim();
  if (/^\d{1,20}$/.test(value)) return value;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    return undefined;
  }
  return /\/status(?:es)?\/(\d{1,20})(?:\/|$)/.exec(url.pathname)?.[1];
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The syndication API escapes &, < and > in `text`; the canvas draws characters, not HTML. */
export function unescapeHtml(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined);
const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const string = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const number = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

interface Entity {
  start: number;
  end: number;
  /** Undefined drops the range (media links, which the card shows as photos). */
  text?: string;
  kind: TextRun['kind'];
  /** The t.co address, to recognise the link a card or quote already shows. */
  url?: string;
}

function entitiesOf(raw: Json | undefined): Entity[] {
  const found: Entity[] = [];
  const indices = (item: Json) => {
    const [start, end] = array(item.indices).map(number);
    return start !== undefined && end !== undefined && end > start ? { start, end } : undefined;
  };
  for (const item of array(raw?.urls).map(object)) {
    const at = item && indices(item);
    if (at) found.push({ ...at, text: string(item.display_url) ?? string(item.expanded_url) ?? string(item.url), kind: 'link', url: string(item.url) });
  }
  for (const item of array(raw?.media).map(object)) {
    const at = item && indices(item);
    if (at) found.push({ ...at, kind: 'link' });
  }
  for (const [key, kind] of [
    ['user_mentions', 'mention'],
    ['hashtags', 'hashtag'],
    ['symbols', 'hashtag'],
  ] as const) {
    for (const item of array(raw?.[key]).map(object)) {
      const at = item && indices(item);
      if (at) found.push({ ...at, kind });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * Cut to `display_text_range`, which leaves out reply mentions and the media link. Indices count
 * code points of the escaped text, so the text is cut before unescaping. A link in `shown` (t.co
 * addresses the card draws as a link card or quote) is left out when it ends the text, as on the site.
 */
export function textRuns(tweet: Json, shown: readonly string[] = []): TextRun[] {
  const points = Array.from(string(tweet.text) ?? '');
  const [from = 0, to = points.length] = array(tweet.display_text_range).map(number);
  const runs: TextRun[] = [];
  const push = (text: string, kind: TextRun['kind']) => {
    if (text === '') return;
    const last = runs.at(-1);
    if (last && last.kind === kind) last.text += text;
    else runs.push({ text, kind });
  };
  let cursor = Math.max(0, from);
  const end = Math.min(points.length, Math.max(cursor, to));
  const shownAtEnd = (entity: Entity) => entity.url !== undefined && shown.includes(entity.url) && points.slice(entity.end, end).join('').trim() === '';
  for (const entity of entitiesOf(object(tweet.entities))) {
    if (entity.end <= cursor || entity.start >= end) continue;
    if (entity.start > cursor) push(unescapeHtml(points.slice(cursor, entity.start).join('')), 'text');
    const original = unescapeHtml(points.slice(Math.max(cursor, entity.start), Math.min(end, entity.end)).join(''));
    if (entity.kind !== 'link') push(original, entity.kind);
    // A media link partly inside the range is still dropped whole.
    else if (entity.text !== undefined && entity.start >= cursor && entity.end <= end && !shownAtEnd(entity)) push(entity.text, 'link');
    cursor = Math.min(end, entity.end);
  }
  if (cursor < end) push(unescapeHtml(points.slice(cursor, end).join('')), 'text');
  const last = runs.at(-1);
  if (last) last.text = last.text.trimEnd();
  return runs.filter((run) => run.text !== '');
}

/** `…_normal.jpg` → `…_400x400.jpg`. */
export function largeAvatar(url: string): string {
  return url.replace(/_(normal|bigger|mini)(\.[a-z0-9]+)$/i, '_400x400$2');
}

/** The medium variant: sharp on the card, small enough for any proxy limit. */
export function photoVariant(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.hostname === 'pbs.twimg.com' && parsed.pathname.startsWith('/media/')) parsed.searchParams.set('name', 'medium');
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Media in the order posted: `mediaDetails` knows each one's type; older payloads only `photos` and `video`. */
export function tweetMedia(tweet: Json): TweetPhoto[] {
  const media: TweetPhoto[] = [];
  for (const item of array(tweet.mediaDetails).map(object)) {
    const url = string(item?.media_url_https);
    const size = object(item?.original_info);
    const width = number(size?.width);
    const height = number(size?.height);
    if (!url || !width || !height) continue;
    const type = string(item?.type);
    if (type === 'photo') media.push({ url: photoVariant(url), width, height });
    else if (type === 'video') media.push({ url, width, height, kind: 'video', durationMs: number(object(item?.video_info)?.duration_millis) });
    else if (type === 'animated_gif') media.push({ url, width, height, kind: 'gif' });
  }
  if (media.length > 0) return media.slice(0, 4);
  for (const photo of array(tweet.photos).map(object)) {
    const url = string(photo?.url);
    const width = number(photo?.width);
    const height = number(photo?.height);
    if (url && width && height) media.push({ url: photoVariant(url), width, height });
  }
  const video = object(tweet.video);
  const poster = string(video?.poster);
  if (media.length === 0 && poster) {
    const [w, h] = array(video?.aspectRatio).map(number);
    media.push({ url: poster, width: w ?? 16, height: h ?? 9, kind: 'video', durationMs: number(video?.durationMs) });
  }
  return media.slice(0, 4);
}

/** Variants, best first: about 800 px wide is sharp at 2× and small for the proxy; a summary wants the thumbnail crop. */
const LARGE_CARD_IMAGES = [
  'photo_image_full_size_large',
  'summary_photo_image_large',
  'thumbnail_image_large',
  'player_image_large',
  'photo_image_full_size',
  'summary_photo_image',
  'thumbnail_image',
  'player_image',
];
const SUMMARY_CARD_IMAGES = ['thumbnail_image_large', 'thumbnail_image', 'summary_photo_image', 'thumbnail_image_small', 'player_image'];

/** The link card of a tweet; undefined for cards without a title (polls, Spaces, apps), which the card leaves out. */
export function linkCard(tweet: Json): LinkCard | undefined {
  const card = object(tweet.card);
  const values = object(card?.binding_values);
  const text = (key: string) => unescapeHtml(string(object(values?.[key])?.string_value)?.trim() ?? '') || undefined;
  const title = text('title');
  if (!card || !title) return undefined;
  // Names may carry a numeric prefix ("2586390716:summary_large_image").
  const name = (string(card.name) ?? '').replace(/^\d+:/, '');
  const player = name === 'player';
  const layout = name === 'summary_large_image' || player ? 'large' : 'summary';
  let image: TweetPhoto | undefined;
  for (const key of layout === 'large' ? LARGE_CARD_IMAGES : SUMMARY_CARD_IMAGES) {
    const value = object(object(values?.[key])?.image_value);
    const url = string(value?.url);
    const width = number(value?.width);
    const height = number(value?.height);
    if (url && width && height) {
      image = { url, width, height, ...(player ? { kind: 'video' as const } : {}) };
      break;
    }
  }
  const link = array(object(tweet.entities)?.urls)
    .map(object)
    .find((item) => item && string(item.url) === string(card.url));
  let host: string | undefined;
  try {
    host = new URL(string(link?.expanded_url) ?? '').hostname.replace(/^www\./, '');
  } catch {
    host = undefined;
  }
  return { layout, title, description: text('description'), domain: text('vanity_url') ?? text('domain') ?? host, image };
}

function author(tweet: Json | undefined) {
  const user = object(tweet?.user);
  if (!tweet || !user || string(tweet.__typename ?? 'Tweet') !== 'Tweet') return undefined;
  const created = string(tweet.created_at);
  const date = created === undefined ? undefined : new Date(created);
  const avatar = string(user.profile_image_url_https);
  return {
    id: string(tweet.id_str) ?? '',
    name: string(user.name) ?? '',
    handle: string(user.screen_name) ?? '',
    verified: user.verified === true || user.is_blue_verified === true,
    avatarUrl: avatar === undefined ? undefined : largeAvatar(avatar),
    createdAt: date && !Number.isNaN(date.getTime()) ? date : undefined,
  };
}

/** @throws Error when the payload is not a tweet (a tombstone, or something else entirely) */
export function tweetView(payload: unknown): TweetView {
  const tweet = object(payload);
  const about = author(tweet);
  if (!tweet || !about) throw new Error('This tweet cannot be shown: it may be deleted or private.');
  const card = linkCard(tweet);
  const quoted = object(tweet.quoted_tweet);
  const quotedAbout = author(quoted);
  const quote: QuotedTweet | undefined = quoted && quotedAbout ? { ...quotedAbout, runs: textRuns(quoted), photos: tweetMedia(quoted) } : undefined;
  // The t.co links of what the card draws itself: its link card, and the quoted tweet's address.
  const shown = array(object(tweet.entities)?.urls)
    .map(object)
    .filter((item) => {
      const url = string(item?.url);
      if (card && url === string(object(tweet.card)?.url)) return true;
      return quote !== undefined && quote.id !== '' && tweetIdFrom(string(item?.expanded_url) ?? '') === quote.id;
    })
    .map((item) => string(item?.url) ?? '');
  return {
    ...about,
    runs: textRuns(tweet, shown),
    photos: tweetMedia(tweet),
    likes: number(tweet.favorite_count),
    replies: number(tweet.conversation_count),
    ...(quote ? { quote } : {}),
    ...(card ? { card } : {}),
  };
}

/**
 * Every image a card draws after the author's avatar, in the order it loads and draws them: the
 * photos or posters, the quoted tweet's avatar and first photo, the link card's image.
 */
export function cardImageUrls(view: TweetView): (string | undefined)[] {
  return [...view.photos.map((photo) => photo.url), view.quote?.avatarUrl, view.quote?.photos[0]?.url, view.card?.image?.url];
}

/** "0:08", "1:28", as the site labels a video. */
export function videoDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
