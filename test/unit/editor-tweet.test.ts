/**
 * What a tweet card shows beyond the tweet's own text: quoted tweets, link cards, and video and
 * GIF posters, read from real syndication payloads and variants of them.
 */
import { describe, expect, it } from 'vitest';
import { cardImageUrls, linkCard, tweetMedia, tweetView, videoDuration } from '#editor/src/model/tweet.ts';
import { tweetFixture } from '../support/upstreams.ts';

type Json = Record<string, any>;
const fixture = (id: string) => JSON.parse(tweetFixture(id)) as Json;
const QUOTE = '1641895049427550208';
const CARD = '1629262255744503809';
const VIDEO = '1674420258080452610';
const REPLY_WITH_VIDEO = '1642958447120646144';
const SPACE = '1862267607274885231';
const MID_TEXT_CARD = '1703436713362870723';
const text = (view: { runs: { text: string }[] }) => view.runs.map((run) => run.text).join('');

describe('tweet media', () => {
  it('reads a video from mediaDetails as a poster with its size and duration', () => {
    expect(tweetMedia(fixture(VIDEO))).toEqual([
      {
        url: 'https://pbs.twimg.com/ext_tw_video_thumb/1674418210144391175/pu/img/fpH1A7ZG-HyKoPzi.jpg',
        width: 1300,
        height: 866,
        kind: 'video',
        durationMs: 8833,
      },
    ]);
  });

  it('marks an animated GIF as a GIF, without a duration', () => {
    // Prepare: no saved payload has a GIF; the syndication API names it animated_gif in mediaDetails
    const tweet = fixture(VIDEO);
    tweet.mediaDetails[0].type = 'animated_gif';

    // Act + Assess
    expect(tweetMedia(tweet)).toStrictEqual([
      { url: 'https://pbs.twimg.com/ext_tw_video_thumb/1674418210144391175/pu/img/fpH1A7ZG-HyKoPzi.jpg', width: 1300, height: 866, kind: 'gif' },
    ]);
  });

  it('keeps photos and posters in the order posted, photos in their medium variant, at most four', () => {
    // Prepare
    const tweet = fixture(VIDEO);
    const video = tweet.mediaDetails[0];
    const photo = fixture(QUOTE).quoted_tweet.mediaDetails[0];
    tweet.mediaDetails = [photo, video, photo, photo, photo];

    // Act
    const media = tweetMedia(tweet);

    // Assess
    expect(media.map((item) => item.kind ?? 'photo')).toEqual(['photo', 'video', 'photo', 'photo']);
    expect(media[0]!.url).toBe('https://pbs.twimg.com/media/FsZNOgcWAAEQtrd.jpg?name=medium');
  });

  it('falls back to photos and the video poster of a payload without mediaDetails', () => {
    // Prepare
    const tweet = fixture(VIDEO);
    delete tweet.mediaDetails;

    // Act + Assess
    expect(tweetMedia(tweet)).toEqual([{ url: tweet.video.poster, width: 650, height: 433, kind: 'video', durationMs: 8833 }]);
  });

  it.each([
    [0, '0:00'],
    [8_833, '0:09'],
    [88_983, '1:29'],
    [3_723_000, '1:02:03'],
  ])('labels a video of %i ms %s', (ms, label) => {
    expect(videoDuration(ms)).toBe(label);
  });
});

describe('link cards', () => {
  it('reads a summary_large_image card: title, description, vanity domain and the large image', () => {
    expect(linkCard(fixture(CARD))).toEqual({
      layout: 'large',
      title: 'Tutorial: Tic-Tac-Toe – React',
      description: 'The library for web and native user interfaces',
      domain: 'react.dev',
      image: { url: 'https://pbs.twimg.com/card_img/1639232954701594625/7ayIAMcm?format=png&name=800x419', width: 800, height: 419 },
    });
  });

  it('reads a summary card with its thumbnail for the square beside the text', () => {
    // Prepare
    const tweet = fixture(CARD);
    tweet.card.name = 'summary';

    // Act + Assess
    expect(linkCard(tweet)).toEqual(
      expect.objectContaining({
        layout: 'summary',
        image: { url: 'https://pbs.twimg.com/card_img/1639232954701594625/7ayIAMcm?format=png&name=600x600', width: 600, height: 315 },
      }),
    );
  });

  it('reads a player card as a large card whose image gets a play mark', () => {
    // Prepare: a player (YouTube) card names its image player_image
    const tweet = fixture(CARD);
    tweet.card.name = 'player';
    tweet.card.binding_values = {
      title: { type: 'STRING', string_value: 'A talk' },
      player_image_large: { type: 'IMAGE', image_value: { url: 'https://pbs.twimg.com/card_img/1/a?format=jpg&name=800x450', width: 800, height: 450 } },
    };

    // Act + Assess
    expect(linkCard(tweet)).toEqual({
      layout: 'large',
      title: 'A talk',
      description: undefined,
      domain: 'beta.reactjs.org',
      image: { url: 'https://pbs.twimg.com/card_img/1/a?format=jpg&name=800x450', width: 800, height: 450, kind: 'video' },
    });
  });

  it('takes the linked page’s host, without www., when the card names no domain', () => {
    // Prepare
    const tweet = fixture(CARD);
    delete tweet.card.binding_values.vanity_url;
    delete tweet.card.binding_values.domain;
    tweet.entities.urls[0].expanded_url = 'https://www.example.org/post';

    // Act + Assess
    expect(linkCard(tweet)?.domain).toBe('example.org');
  });

  it('leaves out a card without a title, such as a Space', () => {
    expect(linkCard(fixture(SPACE))).toBeUndefined();
    expect(tweetView(fixture(SPACE)).card).toBeUndefined();
  });

  it('drops the card’s link from the end of the text, and keeps it where more text follows', () => {
    expect(text(tweetView(fixture(CARD)))).toBe(
      "📰 I recently joined @reactjs! My inaugural project was porting @sophiebits's Tic Tac Toe tutorial to the new React docs. What would you like to see in the next, in the React tutorial?",
    );
    expect(text(tweetView(fixture(MID_TEXT_CARD)))).toContain('reddit.com/r/technology/c…');
  });

  it('keeps the link when the card is not drawn', () => {
    // Prepare
    const tweet = fixture(CARD);
    delete tweet.card.binding_values.title;

    // Act + Assess
    expect(text(tweetView(tweet))).toMatch(/tutorial\? beta\.reactjs\.org\/learn\/tutorial…$/);
  });
});

describe('quoted tweets', () => {
  it('reads the quoted tweet’s author, large avatar, text without its media link, photo and date', () => {
    expect(tweetView(fixture(QUOTE)).quote).toEqual({
      id: '1641086480675225601',
      name: 'sammy',
      handle: 'SamuelSusla',
      verified: false,
      avatarUrl: 'https://pbs.twimg.com/profile_images/1042172116911697920/JkIt3onc_400x400.jpg',
      runs: [
        { kind: 'text', text: 'If you are interested about View Flattening in React Native, I wrote a short post about it: ' },
        { kind: 'link', text: 'github.com/reactwg/react-…' },
        { kind: 'text', text: '\n\nLet me know what you think!' },
      ],
      photos: [{ url: 'https://pbs.twimg.com/media/FsZNOgcWAAEQtrd.jpg?name=medium', width: 1995, height: 896 }],
      createdAt: new Date('2023-03-29T14:34:41.000Z'),
    });
  });

  it('reads a quoted video as a poster with a play mark, and a blue-verified author', () => {
    const quote = tweetView(fixture(VIDEO)).quote;

    expect(quote?.verified).toBe(true);
    expect(quote?.photos).toEqual([
      expect.objectContaining({ kind: 'video', width: 1080, height: 1234, url: expect.stringContaining('/amplify_video_thumb/') }),
    ]);
  });

  it('drops the quoted tweet’s address from the end of the text', () => {
    // Prepare: a quote made by pasting the tweet's address ends the text with its t.co link
    const tweet = fixture(QUOTE);
    const end = Array.from(tweet.text as string).length;
    tweet.text += ' https://t.co/abc';
    tweet.display_text_range = [0, end + 17];
    tweet.entities.urls = [
      {
        url: 'https://t.co/abc',
        display_url: 'twitter.com/SamuelSusla/st…',
        expanded_url: 'https://twitter.com/SamuelSusla/status/1641086480675225601',
        indices: [end + 1, end + 17],
      },
    ];

    // Act + Assess
    expect(text(tweetView(tweet))).toMatch(/without extra setup!$/);
  });

  it.each([
    ['a tombstone', { __typename: 'TweetTombstone', tombstone: {} }],
    ['no user', { id_str: '1', text: 'x' }],
    ['not an object', 'gone'],
  ])('leaves out a quoted tweet that is %s', (_case, quoted) => {
    // Prepare
    const tweet = fixture(QUOTE);
    tweet.quoted_tweet = quoted;

    // Act + Assess
    expect(tweetView(tweet).quote).toBeUndefined();
  });

  it('has no quote or card when the payload has none', () => {
    const view = tweetView(fixture(REPLY_WITH_VIDEO));

    expect(view.quote).toBeUndefined();
    expect(view.card).toBeUndefined();
    expect(view.photos).toEqual([expect.objectContaining({ kind: 'video' })]);
  });
});

describe('card images', () => {
  it('lists the images to load after the avatar: photos, the quote’s avatar and first photo, the card’s image', () => {
    expect(cardImageUrls(tweetView(fixture(VIDEO)))).toEqual([
      'https://pbs.twimg.com/ext_tw_video_thumb/1674418210144391175/pu/img/fpH1A7ZG-HyKoPzi.jpg',
      'https://pbs.twimg.com/profile_images/1651817216629960706/lw4ZsN8u_400x400.jpg',
      'https://pbs.twimg.com/amplify_video_thumb/1652463740418400257/img/Qz_TVDMpFw67WtJo.jpg',
      undefined,
    ]);
    expect(cardImageUrls(tweetView(fixture(CARD)))).toEqual([
      undefined,
      undefined,
      'https://pbs.twimg.com/card_img/1639232954701594625/7ayIAMcm?format=png&name=800x419',
    ]);
  });

  it.each([QUOTE, CARD, VIDEO])('asks only pbs.twimg.com, which the media proxy serves, for tweet %s', (id) => {
    const urls = cardImageUrls(tweetView(fixture(id))).filter((url) => url !== undefined);

    expect(urls.length).toBeGreaterThan(0);
    expect(urls.every((url) => new URL(url).hostname === 'pbs.twimg.com')).toBe(true);
  });
});
