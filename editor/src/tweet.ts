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
}

export interface TweetView {
  id: string;
  name: string;
  handle: string;
  verified: boolean;
  /** The 400×400 variant, sharp at 3×. */
  avatarUrl?: string;
  runs: TextRun[];
  /** Or a video's poster frame; at most four, as on the site. */
  photos: TweetPhoto[];
  createdAt?: Date;
  likes?: number;
  replies?: number;
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
}

function entitiesOf(raw: Json | undefined): Entity[] {
  const found: Entity[] = [];
  const indices = (item: Json) => {
    const [start, end] = array(item.indices).map(number);
    return start !== undefined && end !== undefined && end > start ? { start, end } : undefined;
  };
  for (const item of array(raw?.urls).map(object)) {
    const at = item && indices(item);
    if (at) found.push({ ...at, text: string(item.display_url) ?? string(item.expanded_url) ?? string(item.url), kind: 'link' });
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
 * code points of the escaped text, so the text is cut before unescaping.
 */
export function textRuns(tweet: Json): TextRun[] {
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
  for (const entity of entitiesOf(object(tweet.entities))) {
    if (entity.end <= cursor || entity.start >= end) continue;
    if (entity.start > cursor) push(unescapeHtml(points.slice(cursor, entity.start).join('')), 'text');
    const original = unescapeHtml(points.slice(Math.max(cursor, entity.start), Math.min(end, entity.end)).join(''));
    if (entity.kind !== 'link') push(original, entity.kind);
    // A media link partly inside the range is still dropped whole.
    else if (entity.text !== undefined && entity.start >= cursor && entity.end <= end) push(entity.text, 'link');
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

/** @throws Error when the payload is not a tweet (a tombstone, or something else entirely) */
export function tweetView(payload: unknown): TweetView {
  const tweet = object(payload);
  const user = object(tweet?.user);
  if (!tweet || !user || string(tweet.__typename ?? 'Tweet') !== 'Tweet') throw new Error('This tweet cannot be shown: it may be deleted or private.');
  const photos: TweetPhoto[] = [];
  for (const photo of array(tweet.photos).map(object)) {
    const url = string(photo?.url);
    const width = number(photo?.width);
    const height = number(photo?.height);
    if (url && width && height) photos.push({ url: photoVariant(url), width, height });
  }
  const video = object(tweet.video);
  const poster = string(video?.poster);
  if (photos.length === 0 && poster) {
    const [w, h] = array(video?.aspectRatio).map(number);
    photos.push({ url: poster, width: w ?? 16, height: h ?? 9 });
  }
  const created = string(tweet.created_at);
  const date = created === undefined ? undefined : new Date(created);
  const avatar = string(user.profile_image_url_https);
  return {
    id: string(tweet.id_str) ?? '',
    name: string(user.name) ?? '',
    handle: string(user.screen_name) ?? '',
    verified: user.verified === true || user.is_blue_verified === true,
    avatarUrl: avatar === undefined ? undefined : largeAvatar(avatar),
    runs: textRuns(tweet),
    photos: photos.slice(0, 4),
    createdAt: date && !Number.isNaN(date.getTime()) ? date : undefined,
    likes: number(tweet.favorite_count),
    replies: number(tweet.conversation_count),
  };
}
