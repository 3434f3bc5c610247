/**
 * The fonts layer's fontconfig cache (infra/assets/fonts.ts, font-links.ts): a fresh container's
 * Chromium reads it instead of scanning the fonts, and still draws every script from them.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import { buildFontLayer, fontLinksFor } from '#infra/assets/fonts.ts';
import { chromiumArgs } from '#shared/services/capture/browsers.ts';
import { FONT_CACHE_DIR, FONT_MANIFEST, SHIPPED_CACHE, linkFonts } from '#shared/services/capture/font-links.ts';

let layer: string;
let links: string;
let cacheName: string;
const cached = () => join(FONT_CACHE_DIR, cacheName);

/** The families Chromium drew `text` with, in a browser reading the layer's fonts.conf. */
async function drawnWith(text: string): Promise<string[]> {
  const browser = await puppeteer.launch({
    executablePath: await chromium.executablePath(),
    headless: 'shell',
    args: await chromiumArgs({ singleProcess: true }),
    env: { ...process.env, FONTCONFIG_PATH: layer },
  });
  try {
    const page = await browser.newPage();
    await page.setContent(`<p><span>${text}</span></p>`);
    const cdp = await page.createCDPSession();
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'span' });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((font) => font.familyName).sort();
  } finally {
    await browser.close();
  }
}

/** What a new container has: no links folder and no copy of the cache under /tmp. */
function freshContainer(): void {
  rmSync(links, { recursive: true, force: true });
  rmSync(cached(), { force: true });
}

beforeAll(async () => {
  // Prepare: a layer folder that sits where it is built, so this process can read it.
  layer = mkdtempSync(join(tmpdir(), 'easel-font-layer-'));
  await buildFontLayer(layer, layer);
  links = fontLinksFor(layer);
  const names = readdirSync(join(layer, SHIPPED_CACHE)).filter((name) => name.includes('.cache-'));
  if (names.length !== 1) throw new Error(`Expected one fontconfig cache in the layer, found ${names.join(', ') || 'none'}`);
  cacheName = names[0]!;
}, 120_000);

afterAll(() => {
  freshContainer();
  rmSync(layer, { recursive: true, force: true });
});

describe("the fonts layer's fontconfig cache", () => {
  it('ships one cache, for the links folder its manifest names, which the build leaves behind it', () => {
    // Assess
    expect(cacheName).toMatch(/^[0-9a-f]{32}-le64\.cache-\d+$/);
    expect(JSON.parse(readFileSync(join(layer, FONT_MANIFEST), 'utf8'))).toEqual({ links });
    expect(readFileSync(join(layer, 'fonts.conf'), 'utf8')).toContain(`<dir>${links}</dir>`);
    expect(existsSync(links)).toBe(false);
  });

  it("is read by a fresh container's Chromium, unchanged, and the fonts draw through the links", async () => {
    // Prepare
    freshContainer();
    linkFonts(layer);
    const before = statSync(cached());

    // Act
    // An emoji sequence and an U+FE0F form: drawn by the colour font alone only when it is one whole file first for emoji.
    const families = await drawnWith('Aa 中 🚀 \u{1F469}\u{1F3FE}\u200D\u{1F4BB} \u2764\uFE0F ก');

    // Assess
    expect(statSync(links).mtimeMs).toBe(0);
    expect(families).toEqual(['Noto Color Emoji', 'Noto Sans', 'Noto Sans SC', 'Noto Sans Thai']);
    // fontconfig replaces a cache it refuses (a new file); this one it read as it was.
    expect(statSync(cached()).ino).toBe(before.ino);
    expect(readFileSync(cached())).toEqual(readFileSync(join(layer, SHIPPED_CACHE, cacheName)));
  }, 60_000);

  it('is refused, and rebuilt, when the links folder has its real time (the check the test relies on)', async () => {
    // Prepare
    freshContainer();
    linkFonts(layer);
    const before = statSync(cached());
    utimesSync(links, new Date(), new Date());

    // Act
    await drawnWith('中');

    // Assess
    expect(statSync(cached()).ino).not.toBe(before.ino);
  }, 60_000);
});
