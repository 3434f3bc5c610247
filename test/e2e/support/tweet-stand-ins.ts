/** The tweet's upstreams for editor suites: the syndication API and the media hosts, with images of known colours. */
import sharp from 'sharp';
import { startMediaUpstream, type MediaUpstream } from '../../support/media-upstream.ts';
import { startStub, tweetFixture, type StubServer } from '../../support/upstreams.ts';
import { rgb } from './editor-page.ts';

/** A saved tweet (test/fixtures/tweets) with an avatar and a photo. */
export const TWEET_ID = '1641086480675225601';
export const AVATAR_URL = 'https://pbs.twimg.com/profile_images/1042172116911697920/JkIt3onc_400x400.jpg';
export const PHOTO_URL = 'https://pbs.twimg.com/media/FsZNOgcWAAEQtrd.jpg?name=medium';
/** Colours of the stand-in media, to find them again in the exported image. */
export const AVATAR_RGB = [214, 40, 40] as const;
export const PHOTO_RGB = [20, 110, 200] as const;

/** A stand-in image: its address, one colour, its size and its format. */
export type StandInImage = readonly [url: string, colour: readonly number[], width: number, height: number, format: 'jpeg' | 'png'];

export const TWEET_IMAGES: readonly StandInImage[] = [
  [AVATAR_URL, AVATAR_RGB, 400, 400, 'jpeg'],
  [PHOTO_URL, PHOTO_RGB, 1200, 539, 'jpeg'],
];

export interface TweetStandIns {
  media: MediaUpstream;
  syndication: StubServer;
  /** Settings for the runtime: the media hosts mapped to the stand-in, and TWEET_UPSTREAM_URL. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Serves `tweets` (payloads by id; others 404) and `images`; by default the saved tweet and its two images. */
export async function startTweetStandIns(
  tweets: Readonly<Record<string, string>> = { [TWEET_ID]: tweetFixture(TWEET_ID) },
  images: readonly StandInImage[] = TWEET_IMAGES,
): Promise<TweetStandIns> {
  const media = await startMediaUpstream();
  for (const [url, colour, width, height, format] of images) {
    const image = sharp({ create: { width, height, channels: 3, background: rgb(colour) } });
    media.on(url, { headers: { 'content-type': `image/${format}` }, body: await (format === 'png' ? image.png() : image.jpeg()).toBuffer() });
  }
  const bodies = new Map(Object.entries(tweets));
  const syndication = await startStub((req) => {
    const body = bodies.get(new URL(req.url ?? '/', 'http://stub').searchParams.get('id') ?? '');
    return body === undefined ? { status: 404, body: '' } : { headers: { 'content-type': 'application/json; charset=utf-8' }, body };
  });
  return {
    media,
    syndication,
    env: { ...media.env, TWEET_UPSTREAM_URL: syndication.url },
    close: async () => {
      await syndication.close();
      await media.close();
    },
  };
}
