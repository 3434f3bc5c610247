/**
 * Captures taller than Chromium paints in one pass (8,192 image px), judged row by row on pages of
 * labelled bands: every band where it is on the page, no row missing or doubled where tiles meet.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CAPTURE_HEIGHT_PX, MAX_CAPTURE_PIXELS } from '#shared/schemas/screenshot.ts';
import { call, freshClient } from '../support/client.ts';
import { readPixels } from '../support/images.ts';
import type { Colour } from '../support/images.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { bandColour, LAYOUT, LAYOUT_COLOURS, startTallPages } from '../support/tall-pages.ts';

const suite = useRuntimeWithPages(startTallPages);

const capture = (body: Record<string, unknown>) => call(suite.runtime.url, '/api/screenshot', { body, from: freshClient() });

type Pixels = Awaited<ReturnType<typeof readPixels>>;
const near = (a: Colour, b: Colour) => a.every((value, i) => Math.abs(value - b[i]!) <= 8);

/** Rows of column `x` that do not show the band the page has there (`bandPx` image px each), at most five. */
function misplacedRows(image: Pixels, x: number, bandPx: number): string[] {
  const wrong: string[] = [];
  for (let y = 0; y < image.height && wrong.length < 5; y += 1) {
    const band = Math.floor(y / bandPx);
    if (!near(image.at(x, y), bandColour(band))) wrong.push(`row ${y}: ${image.at(x, y).join(',')}, not band ${band}`);
  }
  return wrong;
}

/** The first and last row of each run of `colour` down column x. */
function runs(image: Pixels, x: number, colour: Colour): [number, number][] {
  const found: [number, number][] = [];
  for (let y = 0; y < image.height; y += 1) {
    if (!near(image.at(x, y), colour)) continue;
    const last = found.at(-1);
    if (last && last[1] === y - 1) last[1] = y;
    else found.push([y, y]);
  }
  return found;
}

describe('POST /api/screenshot: pages taller than one pass', () => {
  it('captures a 12,000 px desktop page whole, every band where it is on the page', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/bands?height=12000`, fullPage: true });

    // Assess
    expect(response.body).toMatchObject({ truncated: false, capturedHeight: 12_000 });
    const image = await readPixels(response.body.screenshot);
    expect([image.width, image.height]).toEqual([1920, 12_000]);
    expect(misplacedRows(image, 960, 1_000)).toEqual([]);
  });

  it('captures a 6,000 CSS px phone page whole at scale 2', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/bands?height=6000&band=500`, fullPage: true, deviceType: 'mobile' });

    // Assess
    expect(response.body).toMatchObject({ truncated: false, capturedHeight: 6_000 });
    const image = await readPixels(response.body.screenshot);
    expect([image.width, image.height]).toEqual([750, 12_000]);
    expect(misplacedRows(image, 375, 1_000)).toEqual([]);
  });

  it('cuts a 20,000 px page at the maximum, says so, and what it holds is right', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/bands?height=20000`, fullPage: true });

    // Assess
    expect(response.body).toMatchObject({ truncated: true, capturedHeight: MAX_CAPTURE_HEIGHT_PX });
    const image = await readPixels(response.body.screenshot);
    expect([image.width, image.height]).toEqual([1920, MAX_CAPTURE_HEIGHT_PX]);
    expect(misplacedRows(image, 960, 1_000)).toEqual([]);
  });

  it('captures an element taller than one pass whole, from its own top', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/element?height=10000&band=700`, selector: '#tall' });

    // Assess
    expect(response.body).toMatchObject({ truncated: false, capturedHeight: 10_000 });
    const image = await readPixels(response.body.screenshot);
    expect([image.width, image.height]).toEqual([1000, 10_000]);
    expect(misplacedRows(image, 500, 700)).toEqual([]);
  });

  it('holds an element capture to the pixel cap, cutting it from its top left', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/element?height=3000&width=16000&band=500`, selector: '#tall' });

    // Assess
    const height = Math.floor(MAX_CAPTURE_PIXELS / 16_000);
    expect(response.body).toMatchObject({ truncated: true, capturedHeight: height });
    const image = await readPixels(response.body.screenshot);
    expect([image.width, image.height]).toEqual([16_000, height]);
    expect(image.width * image.height).toBeLessThanOrEqual(MAX_CAPTURE_PIXELS);
    expect(misplacedRows(image, 15_000, 500)).toEqual([]);
  });

  it('shows the sticky header once at the top, the fixed footer once, and the 100vh hero one viewport tall', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/layout`, fullPage: true });

    // Assess
    const image = await readPixels(response.body.screenshot);
    expect(image.height).toBe(LAYOUT.header + 1080 + LAYOUT.below);
    expect(runs(image, 1000, LAYOUT_COLOURS.header)).toEqual([[0, LAYOUT.header - 1]]);
    expect(runs(image, 1000, LAYOUT_COLOURS.hero)).toEqual([[LAYOUT.header, LAYOUT.header + 1079]]);
    // Fixed to the bottom of the first screen, as a person sees the page when it opens.
    expect(runs(image, 100, LAYOUT_COLOURS.footer)).toEqual([[1080 - LAYOUT.footer, 1079]]);
  });
});
