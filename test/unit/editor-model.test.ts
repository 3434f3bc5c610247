/**
 * The editor's browser code that is plain logic — settings, layout, what a tweet card shows — run
 * in Node. Drawing and the DOM are covered by the end-to-end tests in a real browser.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportProblem, exportSize, fit, fittingScale, layout } from '#editor/src/model/layout.ts';
import { frameBarHeight, resolvedScale, scaleName, scaleNote, scaleSettingName } from '#editor/src/model/presets.ts';
import { DEFAULT_SETTINGS, initialSettings, settingsFrom, settingsToParams } from '#editor/src/model/settings.ts';
import type { Settings } from '#editor/src/model/settings.ts';
import { largeAvatar, photoVariant, textRuns, tweetIdFrom, tweetView, unescapeHtml } from '#editor/src/model/tweet.ts';
import { tweetFixture } from '../support/upstreams.ts';

const FIXTURES = readdirSync(join(import.meta.dirname, '..', 'fixtures', 'tweets'))
  .filter((name) => /^\d+\.json$/.test(name))
  .map((name) => name.replace('.json', ''));

const fixture = (id: string) => JSON.parse(tweetFixture(id)) as Record<string, unknown>;

describe('editor settings', () => {
  const custom: Settings = {
    ...DEFAULT_SETTINGS,
    background: 'solid',
    gradient: 'custom',
    color: '#112233',
    gradientFrom: '#aabbcc',
    gradientTo: '#010203',
    gradientAngle: 270,
    blur: 12,
    padding: 120,
    radius: 20,
    shadow: 'strong',
    frame: 'dark',
    ratio: '9x16',
    scale: 3,
    format: 'webp',
    quality: 'low',
  };

  it('reads back every field it writes', () => {
    // Act
    const roundTrip = settingsFrom(settingsToParams(custom));

    // Assess
    expect(roundTrip).toEqual(custom);
  });

  it('writes short, readable parameters for a shared link', () => {
    expect(settingsToParams(custom).toString()).toBe(
      'bg=solid&g=custom&c=112233&g1=aabbcc&g2=010203&ga=270&bl=12&pad=120&r=20&sh=strong&fr=dark&ar=9x16&x=3&f=webp&q=low',
    );
  });

  it.each([
    ['an unknown gradient', 'g=rainbow', { gradient: DEFAULT_SETTINGS.gradient }],
    ['a colour that is not #rrggbb', 'c=red', { color: DEFAULT_SETTINGS.color }],
    ['padding above the maximum', 'pad=9999', { padding: 256 }],
    ['padding below the minimum', 'pad=-5', { padding: 0 }],
    ['a radius that is not a number', 'r=round', { radius: DEFAULT_SETTINGS.radius }],
    ['a scale that is not offered', 'x=4', { scale: DEFAULT_SETTINGS.scale }],
    ['an unknown format', 'f=gif', { format: DEFAULT_SETTINGS.format }],
    ['an unknown background kind', 'bg=video', { background: DEFAULT_SETTINGS.background }],
    ['a custom gradient colour that is not #rrggbb', 'g=custom&g1=blue&g2=12345', { gradient: 'custom' }],
    ['a gradient angle above 360°', 'ga=400', { gradientAngle: 360 }],
    ['a gradient angle below 0°', 'ga=-90', { gradientAngle: 0 }],
    ['a blur above the maximum', 'bg=image&bl=500', { background: 'image', blur: 40 }],
    ['a blur that is not a number', 'bl=soft', { blur: DEFAULT_SETTINGS.blur }],
  ])('falls back field by field for %s', (_case, query, expected) => {
    expect(settingsFrom(new URLSearchParams(query))).toEqual({ ...DEFAULT_SETTINGS, ...expected });
  });

  it('opens a link made before custom gradients and image backgrounds with their defaults', () => {
    // Act
    const settings = settingsFrom(new URLSearchParams('bg=gradient&g=grape&c=112233&pad=96&r=20&sh=soft&fr=light&ar=1x1&x=3&f=png&q=high'));

    // Assess
    expect(settings).toEqual({
      ...DEFAULT_SETTINGS,
      gradient: 'grape',
      color: '#112233',
      padding: 96,
      radius: 20,
      shadow: 'soft',
      frame: 'light',
      ratio: '1x1',
      scale: 3,
    });
  });

  it('reads a custom gradient and an image background with its blur', () => {
    expect(settingsFrom(new URLSearchParams('bg=image&g=custom&g1=%23FF0000&g2=00ff00&ga=45&bl=8'))).toEqual({
      ...DEFAULT_SETTINGS,
      background: 'image',
      gradient: 'custom',
      gradientFrom: '#ff0000',
      gradientTo: '#00ff00',
      gradientAngle: 45,
      blur: 8,
    });
  });

  it('starts from the defaults, then what storage remembers, then what a shared link says', () => {
    // Prepare
    const stored = settingsToParams({ ...DEFAULT_SETTINGS, padding: 32, frame: 'light' }).toString();

    // Act
    const settings = initialSettings(stored, '#pad=96&g=grape');

    // Assess
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, padding: 96, frame: 'light', gradient: 'grape' });
  });
});

describe('editor layout', () => {
  const base = { padding: 64, frame: 'none', ratio: 'free' } as const;

  it('surrounds the source with the padding when the ratio is free', () => {
    expect(layout({ width: 1920, height: 1080 }, base)).toEqual({
      canvas: { width: 2048, height: 1208 },
      window: { x: 64, y: 64, width: 1920, height: 1080 },
      bar: 0,
      content: { x: 64, y: 64, width: 1920, height: 1080 },
    });
  });

  it('adds a frame bar scaled to the window above the content', () => {
    // Act
    const plan = layout({ width: 550, height: 400 }, { ...base, frame: 'light' });

    // Assess
    expect(plan.bar).toBe(36);
    expect(plan.window).toEqual({ x: 64, y: 64, width: 550, height: 436 });
    expect(plan.content).toEqual({ x: 64, y: 100, width: 550, height: 400 });
    expect(plan.canvas).toEqual({ width: 678, height: 564 });
  });

  it.each([
    [375, 36],
    [1200, 40],
    [1920, 64],
    [3840, 64],
  ])('draws the frame bar of a %i px window %i px high', (width, height) => {
    expect(frameBarHeight(width)).toBe(height);
  });

  it.each([
    ['16x9', { width: 1920, height: 1080 }, { width: 2148, height: 1208 }],
    ['1x1', { width: 550, height: 700 }, { width: 828, height: 828 }],
    ['9x16', { width: 1920, height: 1080 }, { width: 2048, height: 3641 }],
  ] as const)('grows the short side to reach %s, keeping at least the padding', (ratio, source, canvas) => {
    // Act
    const plan = layout(source, { ...base, ratio });

    // Assess
    expect(plan.canvas).toEqual(canvas);
    expect(plan.window.x).toBeGreaterThanOrEqual(64);
    expect(plan.window.y).toBeGreaterThanOrEqual(64);
    expect(Math.abs(plan.canvas.width - plan.window.width - 2 * plan.window.x)).toBeLessThanOrEqual(1);
  });

  it('multiplies the canvas by the scale for the export', () => {
    expect(exportSize({ width: 678, height: 564 }, 3)).toEqual({ width: 2034, height: 1692 });
  });

  it('names Auto as a choice of its own, and says what it stands for once there is a source', () => {
    const size = { width: 2048, height: 1208 };
    expect(['auto', 0.5, 3].map((scale) => scaleSettingName(scale as 'auto' | 0.5 | 3))).toEqual(['Auto', '½×', '3×']);
    expect(scaleNote('auto', 1, size)).toBe('Auto is 1× for this source: 2048 × 1208 px.');
    expect(scaleNote('auto', undefined, size)).toBe('Auto is 2× for this source: 2048 × 1208 px.');
    expect(scaleNote(2, 1, size)).toBe('2048 × 1208 px.');
    expect(scaleNote('auto', undefined, undefined)).toBe('Auto: the source’s own pixels, never upscaled.');
    expect(settingsToParams(settingsFrom(new URLSearchParams('x=auto'))).get('x')).toBe('auto');
  });

  it('offers ½×, which a link keeps and the export halves the canvas for', () => {
    // Prepare
    const settings = settingsFrom(new URLSearchParams('x=0.5'));

    // Act
    const scale = resolvedScale(settings.scale, 1);

    // Assess
    expect(settingsToParams(settings).get('x')).toBe('0.5');
    expect(scaleName(scale)).toBe('½×');
    expect(exportSize({ width: 678, height: 564 }, scale)).toEqual({ width: 339, height: 282 });
    expect(fittingScale({ width: 678, height: 564 }, scale)).toBe(0.5);
  });

  it.each([
    ['fits', { width: 9000, height: 6000 }, undefined],
    ['is taller than a canvas, drawn in bands', { width: 1200, height: 60_000 }, undefined],
    ['is more than 100 megapixels', { width: 12_000, height: 9000 }, /100 megapixels/],
    ['is wider than 16384 px', { width: 16_385, height: 100 }, /wider than a browser canvas/],
  ])('tells whether an export that %s can be made', (_case, size, problem) => {
    const found = exportProblem(size);

    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });

  it.each([
    ['keeps a scale whose export can be made', { width: 1328, height: 864 }, 3, 3],
    ['lowers 3× of a 1328 × 20128 page to the largest scale under 100 megapixels', { width: 1328, height: 20_128 }, 3, 1.93],
    ['lowers a scale that would be wider than a canvas', { width: 9000, height: 100 }, 2, 1.82],
  ])('%s', (_case, canvas, scale, expected) => {
    const fitting = fittingScale(canvas, scale);

    expect(fitting).toBe(expected);
    expect(exportProblem(exportSize(canvas, fitting))).toBeUndefined();
    if (fitting < scale) expect(exportProblem(exportSize(canvas, fitting + 0.01))).toBeDefined();
  });

  it('fits the canvas into the preview box, centred', () => {
    // biome-ignore lint/suspicious/noFocusedTests: fit is the editor's layout function, not a focused test.
    expect(fit({ width: 2000, height: 1000 }, { width: 1000, height: 1000 })).toEqual({ scale: 0.5, x: 0, y: 250 });
  });
});

describe('tweet references', () => {
  it.each([
    ['1641086480675225601', '1641086480675225601'],
    [' https://x.com/SamuelSusla/status/1641086480675225601 ', '1641086480675225601'],
    ['https://twitter.com/SamuelSusla/status/1641086480675225601?s=20&t=abc', '1641086480675225601'],
    ['https://mobile.twitter.com/i/web/status/1641086480675225601', '1641086480675225601'],
    ['x.com/SamuelSusla/status/1641086480675225601/photo/1', '1641086480675225601'],
    ['https://twitter.com/statuses/1641086480675225601', '1641086480675225601'],
  ])('finds the id in %j', (input, id) => {
    expect(tweetIdFrom(input)).toBe(id);
  });

  it.each(['', 'hello', 'https://x.com/SamuelSusla', 'https://x.com/status/12345678901234567890123', '12345678901234567890123'])(
    'finds no id in %j',
    (input) => {
      expect(tweetIdFrom(input)).toBeUndefined();
    },
  );
});

describe('tweet card content', () => {
  it('shows t.co links as their display URL and drops the trailing media link', () => {
    expect(textRuns(fixture('1641086480675225601'))).toEqual([
      { kind: 'text', text: 'If you are interested about View Flattening in React Native, I wrote a short post about it: ' },
      { kind: 'link', text: 'github.com/reactwg/react-…' },
      { kind: 'text', text: '\n\nLet me know what you think!' },
    ]);
  });

  it('unescapes the text after cutting it by code point indices, and colours mentions', () => {
    // The emoji before the entity would shift UTF-16 indices; & is escaped as &amp; in the payload.
    const runs = textRuns(fixture('1642958447120646144'));

    expect(runs[0]).toEqual({ kind: 'mention', text: '@contentlayerdev' });
    expect(runs.map((run) => run.text).join('')).toContain('changes are compiled & reflected in the UI instantaneously 🤯');
    expect(runs.map((run) => run.text).join('')).not.toContain('https://t.co/');
  });

  it.each(FIXTURES)('reads fixture %s without t.co media links or HTML entities', (id) => {
    // Act
    const view = tweetView(fixture(id));

    // Assess
    const text = view.runs.map((run) => run.text).join('');
    expect(view.handle).not.toBe('');
    expect(text).not.toMatch(/&(amp|lt|gt);/);
    expect(text.endsWith(' ')).toBe(false);
    expect(view.avatarUrl).toMatch(/^https:\/\/pbs\.twimg\.com\/profile_images\/.+_400x400\.jpg$/);
    expect(view.createdAt?.toISOString()).toBe(new Date(fixture(id).created_at as string).toISOString());
  });

  it('lists photos in their medium variant, and falls back to a video poster', () => {
    expect(tweetView(fixture('1641086480675225601')).photos).toEqual([
      { url: 'https://pbs.twimg.com/media/FsZNOgcWAAEQtrd.jpg?name=medium', width: 1995, height: 896 },
    ]);
    expect(tweetView(fixture('1642958447120646144')).photos).toEqual([
      expect.objectContaining({ url: expect.stringMatching(/^https:\/\/pbs\.twimg\.com\/.*thumb/) }),
    ]);
  });

  it('marks blue and legacy verified authors', () => {
    expect(tweetView(fixture('1642958447120646144')).verified).toBe(true);
    expect(tweetView(fixture('1641086480675225601')).verified).toBe(false);
  });

  it('refuses a tombstone', () => {
    expect(() => tweetView(fixture('tombstone-1'))).toThrow('This tweet cannot be shown');
  });

  it.each([
    ['https://pbs.twimg.com/profile_images/1/abc_normal.jpg', 'https://pbs.twimg.com/profile_images/1/abc_400x400.jpg'],
    ['https://pbs.twimg.com/profile_images/1/abc_bigger.png', 'https://pbs.twimg.com/profile_images/1/abc_400x400.png'],
    ['https://pbs.twimg.com/profile_images/1/abc.jpg', 'https://pbs.twimg.com/profile_images/1/abc.jpg'],
  ])('asks for the large avatar variant of %s', (url, expected) => {
    expect(largeAvatar(url)).toBe(expected);
  });

  it('leaves media URLs of other paths alone', () => {
    expect(photoVariant('https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/a.jpg')).toBe('https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/a.jpg');
    expect(unescapeHtml('a &amp;lt; b &lt; c')).toBe('a &lt; b < c');
  });
});
