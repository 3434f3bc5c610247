/**
 * Captures through the local runtime draw every script and emoji with the capture fonts
 * (infra/assets/fonts.ts), judged on the pixels of pages with one character or emoji per box and
 * confirmed with the fonts Chromium reports for each box.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FONT_SOURCES } from '#infra/assets/fonts.ts';
import { call, freshClient } from '../support/client.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { EMOJI_PROBES, FONT_PROBES, MONO_BOXES, NOTDEF_BOX, boxAt, boxPixels, difference, emojiBoxAt, startFontPages } from '../support/font-pages.ts';
import type { BoxPixels } from '../support/font-pages.ts';

const suite = useRuntimeWithPages(startFontPages);

let png: Buffer;
let notdef: BoxPixels;

async function capture(path: string, deviceType: 'desktop' | 'mobile' = 'desktop'): Promise<Buffer> {
  const response = await call(suite.runtime.url, '/api/screenshot', { body: { url: `${suite.pages.origin}${path}`, deviceType }, from: freshClient() });
  if (response.status !== 200) throw new Error(`capture answered ${response.status}: ${JSON.stringify(response.body)}`);
  return Buffer.from(response.body.screenshot, 'base64');
}

beforeAll(async () => {
  png = await capture('/scripts');
  notdef = await boxPixels(png, NOTDEF_BOX);
});

interface UsedFont {
  family: string;
  glyphs: number;
}

/** The platform fonts Chromium drew the span of each box with, asked over CDP on the runtime's own browser. */
async function fontsByBox(path: string, ids: readonly string[]): Promise<Record<string, UsedFont[]>> {
  // Imported once the runtime has set the handlers' environment, as the handlers are.
  const { browserBackend } = await import('#shared/wiring/capture.ts');
  const lease = await browserBackend().acquire();
  const page = await lease.browser.newPage();
  try {
    await page.goto(`${suite.pages.origin}${path}`, { waitUntil: 'load' });
    const cdp = await page.createCDPSession();
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const result: Record<string, UsedFont[]> = {};
    for (const id of ids) {
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `#${id} span` });
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      result[id] = fonts.map((font) => ({ family: font.familyName, glyphs: font.glyphCount }));
    }
    return result;
  } finally {
    await page.close();
    lease.release();
  }
}

describe('POST /api/screenshot: fonts', () => {
  it('draws a .notdef box for a code point no font has, the reference a missing glyph would match', () => {
    // Assess
    expect(notdef.ink).toBeGreaterThan(0);
  });

  it.each(FONT_PROBES.map((probe, index) => [probe.id, probe.text, index] as const))(
    'draws %s (%s) with a glyph: not blank, not the .notdef box',
    async (_id, _text, index) => {
      // Act
      const box = await boxPixels(png, boxAt(index));

      // Assess
      expect(box.ink).toBeGreaterThan(40);
      expect(difference(box, notdef)).toBeGreaterThan(0.02);
    },
  );

  it('draws the emoji in colour', async () => {
    // Act
    const emoji = await boxPixels(png, boxAt(FONT_PROBES.findIndex((probe) => probe.id === 'emoji')));

    // Assess
    expect(emoji.coloured).toBeGreaterThan(400);
  });

  it('draws monospace text in a fixed-width face: eight i as wide as eight W', async () => {
    // Act
    const narrow = await boxPixels(png, MONO_BOXES.narrow);
    const wide = await boxPixels(png, MONO_BOXES.wide);

    // Assess: a proportional face makes the i run a third as wide.
    const width = (box: BoxPixels) => box.inkRight - box.inkLeft;
    expect(width(narrow) / width(wide)).toBeGreaterThan(0.8);
  });

  it('uses the capture fonts alone, the expected one for each script', async () => {
    // Act
    const fonts = await fontsByBox(
      '/scripts',
      FONT_PROBES.map((probe) => probe.id),
    );
    const used = Object.fromEntries(Object.entries(fonts).map(([id, list]) => [id, list.map((font) => font.family)]));

    // Assess
    expect(used).toEqual(Object.fromEntries(FONT_PROBES.map((probe) => [probe.id, [probe.family]])));
    const shipped = new Set(FONT_SOURCES.map((source) => source.family));
    expect(
      Object.values(used)
        .flat()
        .filter((family) => !shipped.has(family)),
    ).toEqual([]);
  });
});

describe('POST /api/screenshot: emoji', () => {
  const DEVICES = { desktop: 1, mobile: 2 } as const;
  const shots: Partial<Record<keyof typeof DEVICES, Buffer>> = {};

  beforeAll(async () => {
    shots.desktop = await capture('/emoji', 'desktop');
    shots.mobile = await capture('/emoji', 'mobile');
  });

  const inkWidth = (box: BoxPixels) => (box.ink === 0 ? 0 : box.inkRight - box.inkLeft + 1);

  it.each(
    (Object.keys(DEVICES) as (keyof typeof DEVICES)[]).flatMap((device) => EMOJI_PROBES.map((probe, index) => [probe.id, device, probe, index] as const)),
  )('draws %s on %s as one emoji: no wider than a single one, in colour', async (_id, device, probe, index) => {
    // Prepare
    const scale = DEVICES[device];
    const png = shots[device]!;
    const single = await boxPixels(png, emojiBoxAt(0, scale));

    // Act
    const box = await boxPixels(png, emojiBoxAt(index, scale));

    // Assess: a sequence split across fonts draws two or three glyphs (boxes or emoji) side by side,
    // and a text font's glyph has no colour.
    expect(box.ink).toBeGreaterThan(200 * scale ** 2);
    expect(inkWidth(box)).toBeLessThanOrEqual(inkWidth(single) * 1.25);
    if (probe.coloured) expect(box.coloured).toBeGreaterThan(100 * scale ** 2);
  });

  it('draws each emoji with one glyph of Noto Color Emoji', async () => {
    // Act
    const used = await fontsByBox(
      '/emoji',
      EMOJI_PROBES.map((probe) => probe.id),
    );

    // Assess
    expect(used).toEqual(Object.fromEntries(EMOJI_PROBES.map((probe) => [probe.id, [{ family: 'Noto Color Emoji', glyphs: 1 }]])));
  });
});
