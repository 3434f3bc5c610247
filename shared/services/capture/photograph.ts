/** Taking the picture: in tiles where one screenshot would wrap, the whole page scrolled through until it stops growing. */
import type { Page } from 'puppeteer-core';
import sharp from 'sharp';
import { NotFoundError } from '#shared/errors.ts';
import { MAX_CAPTURE_HEIGHT_PX, MAX_CAPTURE_PIXELS, MAX_CAPTURE_WIDTH_PX } from '#shared/schemas/screenshot.ts';
import type { Redaction } from '#shared/schemas/redaction.ts';
import type { UnreadMedia } from '#shared/schemas/screenshot.ts';
import type { CaptureExtent } from '#shared/store/capture-cache.ts';
import type { Deadline } from '#shared/services/capture/deadline.ts';
import { SCREEN_PX } from '#shared/services/capture/devices.ts';
import type { DeviceProfile } from '#shared/services/capture/devices.ts';
import { documentBox, pageHeight, scrollThrough } from '#shared/services/capture/in-page.ts';
import type { CaptureOptions } from '#shared/services/capture/options.ts';
import { settle } from '#shared/services/capture/settle.ts';
import type { Traffic } from '#shared/services/capture/traffic.ts';
import { paintImage, paintPng } from '#shared/services/capture/redaction/paint.ts';
import type { Cover } from '#shared/services/capture/redaction/paint.ts';
import type { ReadAhead } from '#shared/services/capture/redaction/redact-page.ts';

/** Tiles are as large as one screenshot paints right. */
export const TILE_PX = SCREEN_PX;

// Keep this much of the time-out for taking and encoding the screenshot after settling.
export const SCREENSHOT_RESERVE_MS = 1_000;

export interface Picture {
  png: Uint8Array;
  extent?: CaptureExtent;
  /** What the picture covers in document CSS px; null for the viewport. */
  area: Clip | null;
  redactions?: Redaction[];
  /** With `redact`: media drawn in the picture whose pixels were not searched. */
  unread?: UnreadMedia;
}

export interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A clip (whole CSS px) as one PNG: one screenshot, or tiles beyond the viewport with the layout viewport kept (`vh`, fixed, sticky), joined. */
export async function shoot(page: Page, clip: Clip, scale: number, deadline: Deadline, cover?: Cover): Promise<Uint8Array> {
  const side = Math.floor(TILE_PX / scale);
  if (clip.width <= side && clip.height <= side)
    return deadline.race(
      page.screenshot({ type: 'png', clip, captureBeyondViewport: true, optimizeForSpeed: cover?.expected }).then((png) => paintPng(png, cover)),
    );
  // Row by row, left to right: sharp joins them in that order, each at the top left of its cell.
  const tiles: Buffer[] = [];
  let across = 0;
  for (let top = 0; top < clip.height; top += side) {
    for (let left = 0; left < clip.width; left += side) {
      const tile = { x: clip.x + left, y: clip.y + top, width: Math.min(side, clip.width - left), height: Math.min(side, clip.height - top) };
      // Decoded and encoded again once joined: the fast encoding is enough here.
      const png = await deadline.race(page.screenshot({ type: 'png', clip: tile, captureBeyondViewport: true, optimizeForSpeed: true }));
      tiles.push(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
    }
    across ||= tiles.length;
  }
  // The last row and column of cells are cut to the clip; joining is far cheaper than compositing.
  const whole = { left: 0, top: 0, width: clip.width * scale, height: clip.height * scale };
  return deadline.race(paintImage(sharp(tiles, { join: { across }, limitInputPixels: false }).extract(whole), whole, cover));
}

/** A box in whole CSS pixels, as puppeteer rounds a clip, without the part left of or above the page. */
function wholePixels(box: Clip): Clip {
  const x = Math.round(Math.max(0, box.x));
  const y = Math.round(Math.max(0, box.y));
  return { x, y, width: Math.round(box.x + box.width) - x, height: Math.round(box.y + box.height) - y };
}

/** The largest part of a box from its top left that the capture caps allow at `scale`, and whether it is all of it. */
export function capped(box: Clip, scale: number): { clip: Clip; extent: CaptureExtent } {
  const width = Math.min(box.width, Math.floor(MAX_CAPTURE_WIDTH_PX / scale));
  const height = Math.min(box.height, Math.floor(Math.min(MAX_CAPTURE_HEIGHT_PX, MAX_CAPTURE_PIXELS / (width * scale)) / scale));
  const extent: CaptureExtent = { truncated: width < box.width || height < box.height, capturedHeight: height };
  if (width < box.width) extent.capturedWidth = width;
  return { clip: { ...box, width, height }, extent };
}

/** With `redact`, reads the page while it settles (a dynamic import: the detectors load on first use). */
export function readAheadFor(page: Page, options: CaptureOptions): Promise<ReadAhead | undefined> | undefined {
  const kinds = options.redact;
  if (!kinds?.length) return undefined;
  return import('#shared/services/capture/redaction/redact-page.ts').then(
    ({ readAhead }) => readAhead(page, kinds),
    () => undefined,
  );
}

/** The picture `take` makes; with `redact`, what is found painted over (after the scroll, so what it loaded is searched too). */
async function redacted(
  options: CaptureOptions,
  input: { page: Page; area: Clip | null; deadline: Deadline; ahead: Promise<ReadAhead | undefined> | undefined },
  take: (cover?: Cover) => Promise<Uint8Array>,
): Promise<{ png: Uint8Array; redactions?: Redaction[]; unread?: UnreadMedia }> {
  if (!options.redact?.length) return { png: await take() };
  const { redactPage } = await import('#shared/services/capture/redaction/redact-page.ts');
  const { ahead, ...rest } = input;
  return redactPage({ ...rest, kinds: options.redact, ...(ahead ? { ahead } : {}), take });
}

/** The picture the options ask for: the viewport, one element's box, or the page to its end. */
export async function photograph(
  page: Page,
  traffic: Traffic,
  options: CaptureOptions,
  device: DeviceProfile,
  deadline: Deadline,
  ahead?: Promise<ReadAhead | undefined>,
): Promise<Picture> {
  const scale = device.deviceScaleFactor;
  if (options.selector !== undefined) {
    const box = await deadline.race(page.evaluate(documentBox, options.selector));
    const whole = box && wholePixels(box);
    if (!whole || whole.width < 1 || whole.height < 1) {
      throw new NotFoundError(
        'No element matches the selector',
        `No element with a visible box matches selector ${JSON.stringify(options.selector)} once the page is ready; check it against the page, or wait for it with waitForSelector.`,
      );
    }
    const { clip, extent } = capped(whole, scale);
    return { ...(await redacted(options, { page, area: clip, deadline, ahead }, (cover) => shoot(page, clip, scale, deadline, cover))), extent, area: clip };
  }
  if (!options.fullPage) {
    const viewport = (cover?: Cover) =>
      deadline.race(page.screenshot({ type: 'png', captureBeyondViewport: false, optimizeForSpeed: cover?.expected }).then((png) => paintPng(png, cover)));
    return { ...(await redacted(options, { page, area: null, deadline, ahead }, viewport)), area: null };
  }
  const { height, growing } = await wholePage(page, traffic, device, deadline);
  const { clip, extent } = capped({ x: 0, y: 0, width: device.width, height: Math.max(1, height) }, scale);
  // A page still growing when time ran out is taller than the picture: cut, as past the maximum.
  if (growing) extent.truncated = true;
  return { ...(await redacted(options, { page, area: clip, deadline, ahead }, (cover) => shoot(page, clip, scale, deadline, cover))), extent, area: clip };
}

const ROUND_RESERVE_MS = 500;

/** Scrolled through, settled and measured again until the page stops growing, reaches the maximum or runs out of time. */
async function wholePage(page: Page, traffic: Traffic, device: DeviceProfile, deadline: Deadline): Promise<{ height: number; growing: boolean }> {
  const most = capped({ x: 0, y: 0, width: device.width, height: Number.MAX_SAFE_INTEGER }, device.deviceScaleFactor).clip.height;
  let from = 0;
  let before = await deadline.race(page.evaluate(pageHeight));
  for (;;) {
    await deadline.race(page.evaluate(scrollThrough, most, from));
    await deadline.race(settle(page, traffic, deadline.remaining() - SCREENSHOT_RESERVE_MS));
    const height = await deadline.race(page.evaluate(pageHeight));
    if (height <= before || before >= most) return { height, growing: false };
    if (deadline.remaining() - SCREENSHOT_RESERVE_MS < ROUND_RESERVE_MS) return { height, growing: true };
    from = before;
    before = height;
  }
}
