/**
 * Tweet cards in the real browser: quoted tweets, link cards and play marks on video posters, found
 * again by their stand-in media's colours in the exported PNG.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { TEST_OUTPUT } from '../support/browser.ts';
import { tweetFixture } from '../support/upstreams.ts';
import { countColour, expectColour, exportDownload, pixelOf, SLOW, violations, waitForStatus } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';
import { startTweetStandIns, type StandInImage, type TweetStandIns } from './support/tweet-stand-ins.ts';

/** Real payloads (test/fixtures/tweets/SOURCES.md): a quote with a photo, a large link card, a video quoting a video. */
const QUOTE = '1641895049427550208';
const CARD = '1629262255744503809';
const VIDEO = '1674420258080452610';
/** Variants made here from those, for what no saved payload shows: a summary card and a GIF. */
const SUMMARY = '1000000000000000101';
const GIF = '1000000000000000102';

const PIC = 'https://pbs.twimg.com';
const AUTHOR_AVATARS = [`${PIC}/profile_images/1562179359884029952/zk3CijLw_400x400.jpg`, `${PIC}/profile_images/1016982898556141569/R09dBwgv_400x400.jpg`];
const QUOTED_AVATARS = [`${PIC}/profile_images/1042172116911697920/JkIt3onc_400x400.jpg`, `${PIC}/profile_images/1651817216629960706/lw4ZsN8u_400x400.jpg`];
const QUOTED_PHOTO = `${PIC}/media/FsZNOgcWAAEQtrd.jpg?name=medium`;
const CARD_IMAGE = `${PIC}/card_img/1639232954701594625/7ayIAMcm?format=png&name=800x419`;
const CARD_THUMBNAIL = `${PIC}/card_img/1639232954701594625/7ayIAMcm?format=png&name=600x600`;
const POSTER = `${PIC}/ext_tw_video_thumb/1674418210144391175/pu/img/fpH1A7ZG-HyKoPzi.jpg`;
const QUOTED_POSTER = `${PIC}/amplify_video_thumb/1652463740418400257/img/Qz_TVDMpFw67WtJo.jpg`;

/** Stand-in colours, each far from the card's own (text, borders, the link and play-mark blue). */
const AVATAR_RGB = [214, 40, 40] as const;
const QUOTED_AVATAR_RGB = [240, 140, 20] as const;
const QUOTED_PHOTO_RGB = [40, 160, 60] as const;
const CARD_RGB = [150, 60, 200] as const;
const POSTER_RGB = [200, 30, 120] as const;
const QUOTED_POSTER_RGB = [230, 200, 40] as const;
const PLAY_BLUE = [29, 155, 240] as const;
const WHITE = [255, 255, 255] as const;
/** tweet-card.ts: the card's inner width at the default 2× export, and its theme colours. */
const SCALE = 2;
const INNER = (550 - 2 * 24) * SCALE;
/** The 1 px outline drawn over an image's edges at the card's corners. */
const BORDER = SCALE;
const THEME = { light: { background: [255, 255, 255], border: [207, 217, 222] }, dark: { background: [0, 0, 0], border: [47, 51, 54] } } as const;

const MEDIA: StandInImage[] = [
  ...AUTHOR_AVATARS.map((url) => [url, AVATAR_RGB, 400, 400, 'jpeg'] as const),
  ...QUOTED_AVATARS.map((url) => [url, QUOTED_AVATAR_RGB, 400, 400, 'jpeg'] as const),
  [QUOTED_PHOTO, QUOTED_PHOTO_RGB, 1200, 539, 'jpeg'],
  [CARD_IMAGE, CARD_RGB, 800, 419, 'png'],
  [CARD_THUMBNAIL, CARD_RGB, 600, 315, 'png'],
  [POSTER, POSTER_RGB, 1300, 866, 'jpeg'],
  [QUOTED_POSTER, QUOTED_POSTER_RGB, 1080, 1234, 'jpeg'],
];

function payloads(): Record<string, string> {
  const summary = JSON.parse(tweetFixture(CARD)) as { id_str: string; card: { name: string } };
  summary.id_str = SUMMARY;
  summary.card.name = 'summary';
  const gif = JSON.parse(tweetFixture(VIDEO)) as { id_str: string; mediaDetails: { type: string }[]; quoted_tweet?: unknown };
  gif.id_str = GIF;
  gif.mediaDetails[0]!.type = 'animated_gif';
  delete gif.quoted_tweet;
  return {
    [QUOTE]: tweetFixture(QUOTE),
    [CARD]: tweetFixture(CARD),
    [VIDEO]: tweetFixture(VIDEO),
    [SUMMARY]: JSON.stringify(summary),
    [GIF]: JSON.stringify(gif),
  };
}

let tweets: TweetStandIns;
const { runtime, open } = useEditorSuite({
  name: 'tweets',
  before: async () => {
    tweets = await startTweetStandIns(payloads(), MEDIA);
    Object.assign(process.env, tweets.env);
    return tweets.close;
  },
});

/** Loads the tweet in the Tweet tab, in `theme`. */
async function loadTweet(page: Page, id: string, theme: 'light' | 'dark'): Promise<string> {
  await page.click('#tab-tweet');
  await page.click(`input[name="card-theme"][value="${theme}"]`);
  await page.type('#tweet-ref', id);
  await page.click('#tweet-submit');
  return waitForStatus(page, '#tweet-status', 'Loaded the tweet', '#source-error');
}

/** Exports at the defaults (PNG, 2×); the PNG is also kept in test-output under `name`. */
async function exportPng(page: Page, downloads: string, name: string): Promise<Buffer> {
  const png = await exportDownload(page, downloads);
  await mkdir(TEST_OUTPUT, { recursive: true });
  await writeFile(join(TEST_OUTPUT, `${name}.png`), png);
  return png;
}

async function exportTweet(id: string, theme: 'light' | 'dark' = 'light'): Promise<{ png: Buffer; page: Page }> {
  const { page, downloads } = await open(runtime().url);
  await loadTweet(page, id, theme);
  return { png: await exportPng(page, downloads, `tweet-card-${id}-${theme}`), page };
}

/** The middle of a box, where a play mark's triangle is. */
const middle = (box: Box) => [Math.round((box.left + box.right) / 2), Math.round((box.top + box.bottom) / 2)] as const;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The smallest box around every pixel within `tolerance` of `colour`; undefined when there is none. */
async function colourBox(image: Buffer, colour: readonly number[], tolerance = 24): Promise<Box | undefined> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let box: Box | undefined;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * info.channels;
      if (Math.abs(data[i]! - colour[0]!) > tolerance || Math.abs(data[i + 1]! - colour[1]!) > tolerance || Math.abs(data[i + 2]! - colour[2]!) > tolerance)
        continue;
      box = box
        ? { left: Math.min(box.left, x), top: Math.min(box.top, y), right: Math.max(box.right, x), bottom: Math.max(box.bottom, y) }
        : { left: x, top: y, right: x, bottom: y };
    }
  }
  return box;
}

const sizeOf = (box: Box) => ({ width: box.right - box.left + 1, height: box.bottom - box.top + 1 });
const requested = () => tweets.media.server.requests.map((request) => `https://${request.headers.host}${request.path}`).sort();

describe('tweet cards in the editor', SLOW, () => {
  it.each(['light', 'dark'] as const)('draws a quoted tweet as a bordered box with its author and photo in the %s theme', async (theme) => {
    // Prepare
    tweets.media.server.requests.length = 0;

    // Act
    const { png, page } = await exportTweet(QUOTE, theme);

    // Assess: every image came through the media proxy, the canvas stayed exportable
    expect(requested()).toEqual([AUTHOR_AVATARS[0], QUOTED_AVATARS[0], QUOTED_PHOTO].sort());
    expect(await violations(page)).toEqual([]);
    // Assess: the quoted photo spans the box's width, under a border line in the theme's colour
    const photo = (await colourBox(png, QUOTED_PHOTO_RGB))!;
    expect(photo).toBeDefined();
    expect(Math.abs(sizeOf(photo).width - (INNER - 2 * BORDER))).toBeLessThanOrEqual(1);
    expectColour(await pixelOf(png, photo.left + INNER / 2, photo.top - 1), THEME[theme].border, 16);
    expectColour(await pixelOf(png, photo.left - 12, photo.top), THEME[theme].background, 4);
    // Assess: the quoted author's small avatar beside the author's own, larger one
    const small = await countColour(png, QUOTED_AVATAR_RGB);
    const large = await countColour(png, AVATAR_RGB);
    expect(small).toBeGreaterThan(Math.PI * (10 * SCALE - 2) ** 2);
    expect(small).toBeLessThan(Math.PI * (10 * SCALE + 1) ** 2);
    expect(large).toBeGreaterThan(Math.PI * (24 * SCALE - 2) ** 2);
  });

  it.each([
    // The outline covers the image's outer edges; a separator line follows its inner one.
    ['summary_large_image', CARD, { width: INNER - 2 * BORDER, height: Math.round(INNER / SCALE / 1.91) * SCALE - BORDER }],
    ['summary', SUMMARY, { width: 130 * SCALE - BORDER, height: 130 * SCALE - 2 * BORDER }],
  ])('draws a %s link card with its image in the shape of that layout', async (_name, id, expected) => {
    // Prepare
    tweets.media.server.requests.length = 0;

    // Act
    const { png } = await exportTweet(id);

    // Assess: the card's image went through the proxy and fills its place in the card
    expect(requested()).toContain(id === CARD ? CARD_IMAGE : CARD_THUMBNAIL);
    const image = (await colourBox(png, CARD_RGB))!;
    expect(image).toBeDefined();
    const size = sizeOf(image);
    expect(Math.abs(size.width - expected.width)).toBeLessThanOrEqual(1);
    expect(Math.abs(size.height - expected.height)).toBeLessThanOrEqual(1);
  });

  it('puts a play mark on the video poster and on the quoted tweet’s video, with a duration label', async () => {
    // Act
    const { png } = await exportTweet(VIDEO);

    // Assess: a white triangle in a blue disc over the middle of each poster
    for (const colour of [POSTER_RGB, QUOTED_POSTER_RGB]) {
      const poster = (await colourBox(png, colour))!;
      expect(poster).toBeDefined();
      expect(Math.abs(sizeOf(poster).width - (INNER - 2 * BORDER))).toBeLessThanOrEqual(1);
      const [cx, cy] = middle(poster);
      expectColour(await pixelOf(png, cx, cy), WHITE, 24);
      expectColour(await pixelOf(png, cx - 20 * SCALE, cy), PLAY_BLUE, 24);
      // The label's dark plate in the bottom-left corner, the poster again beside it
      expect((await pixelOf(png, poster.left + 14 * SCALE, poster.bottom - 14 * SCALE)).every((value) => value < 80)).toBe(true);
      expectColour(await pixelOf(png, poster.right - 14 * SCALE, poster.bottom - 14 * SCALE), colour, 24);
    }
  });

  it('labels a GIF’s poster GIF under a play mark and says so to screen readers', async () => {
    // Act
    const { png, page } = await exportTweet(GIF);

    // Assess
    const poster = (await colourBox(png, POSTER_RGB))!;
    const [cx, cy] = middle(poster);
    expectColour(await pixelOf(png, cx, cy), WHITE, 24);
    expect((await pixelOf(png, poster.left + 14 * SCALE, poster.bottom - 14 * SCALE)).every((value) => value < 80)).toBe(true);
    expect(await page.$eval('#preview', (canvas) => canvas.getAttribute('aria-label'))).toContain('Tweet by @_ScottCondron with a GIF, light card');
  });

  it('redraws the quote and its poster in the other theme from the images already loaded', async () => {
    // Prepare
    const { page, downloads } = await open(runtime().url);
    await loadTweet(page, VIDEO, 'light');
    const loaded = requested();

    // Act
    await page.click('input[name="card-theme"][value="dark"]');
    const png = await exportPng(page, downloads, `tweet-card-${VIDEO}-switched-dark`);

    // Assess: nothing fetched again, and the quoted tweet's poster with its play mark on a dark card
    expect(requested()).toEqual(loaded);
    const poster = (await colourBox(png, QUOTED_POSTER_RGB))!;
    expect(poster).toBeDefined();
    expectColour(await pixelOf(png, ...middle(poster)), WHITE, 24);
    expectColour(await pixelOf(png, poster.left + INNER / 2, poster.top - 1), THEME.dark.border, 16);
    expectColour(await pixelOf(png, poster.left - 12, poster.top), THEME.dark.background, 4);
  });
});
