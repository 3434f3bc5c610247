/**
 * Captures through the local runtime draw every script and emoji with the capture fonts
 * (infra/assets/fonts.ts), judged on the pixels of a page with one character per box and confirmed
 * with the fonts Chromium reports for each box.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FONT_SOURCES } from '#infra/assets/fonts.ts';
import { call, freshClient } from '../support/client.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { FONT_PROBES, MONO_BOXES, NOTDEF_BOX, boxAt, boxPixels, difference, startFontPages } from '../support/font-pages.ts';
import type { BoxPixels } from '../support/font-pages.ts';

const suite = useRuntimeWithPages(startFontPages);

let png: Buffer;
let notdef: BoxPixels;

beforeAll(async () => {
  const response = await call(suite.runtime.url, '/api/screenshot', { body: { url: `${suite.pages.origin}/scripts` }, from: freshClient() });
  if (response.status !== 200) throw new Error(`capture answered ${response.status}: ${JSON.stringify(response.body)}`);
  png = Buffer.from(response.body.screenshot, 'base64');
  notdef = await boxPixels(png, NOTDEF_BOX);
});

/** The platform fonts Chromium used for each probe's text, asked over CDP on the runtime's own browser. */
async function fontsByProbe(): Promise<Record<string, string[]>> {
  // Imported once the runtime has set the handlers' environment, as the handlers are.
  const { browserBackend } = await import('#shared/wiring/capture.ts');
  const lease = await browserBackend().acquire();
  const page = await lease.browser.newPage();
  try {
    await page.goto(`${suite.pages.origin}/scripts`, { waitUntil: 'load' });
    const cdp = await page.createCDPSession();
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const result: Record<string, string[]> = {};
    for (const probe of FONT_PROBES) {
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `#${probe.id} span` });
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      result[probe.id] = fonts.map((font) => font.familyName);
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
    const used = await fontsByProbe();

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
