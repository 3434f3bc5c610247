/** The capture options beyond URL, device and scheme, and the canonical form the cache keys them by. */
import { createHash } from 'node:crypto';
import type { ScreenshotRequest } from '#shared/schemas/screenshot.ts';
import { DEVICES } from '#shared/services/capture/devices.ts';
import type { DeviceType } from '#shared/services/capture/devices.ts';

export type CaptureOptions = Pick<ScreenshotRequest, 'fullPage' | 'selector' | 'waitForSelector' | 'delay' | 'hideSelectors' | 'scale' | 'blockBanners' | 'blockAds'>;

export const DEFAULT_OPTIONS: CaptureOptions = { fullPage: false, delay: 0, hideSelectors: [], blockBanners: false, blockAds: false };

const OPTION_NAMES = ['fullPage', 'selector', 'waitForSelector', 'delay', 'hideSelectors', 'scale', 'blockBanners', 'blockAds'] as const satisfies readonly (keyof CaptureOptions)[];

/** The options of a request, over the defaults: what a capture runs with. */
export function captureOptionsOf(request: Partial<CaptureOptions>): CaptureOptions {
  const given = Object.fromEntries(OPTION_NAMES.filter((name) => request[name] !== undefined).map((name) => [name, request[name]]));
  return { ...DEFAULT_OPTIONS, ...given };
}

/** Options that change nothing are left out, so a request with none keeps the key it always had. */
function canonical(options: Partial<CaptureOptions>, device: DeviceType): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (options.fullPage) out.fullPage = true;
  if (options.selector !== undefined) out.selector = options.selector;
  if (options.waitForSelector !== undefined) out.waitForSelector = options.waitForSelector;
  if (options.delay) out.delay = options.delay;
  // Hiding is a set: order and repeats change nothing.
  if (options.hideSelectors?.length) out.hideSelectors = [...new Set(options.hideSelectors)].sort();
  if (options.scale !== undefined && options.scale !== DEVICES[device].deviceScaleFactor) out.scale = options.scale;
  if (options.blockBanners) out.blockBanners = true;
  if (options.blockAds) out.blockAds = true;
  return out;
}

/**
 * A short hash of the options that differ from the defaults, or undefined when none do. Keys are
 * written in a fixed order, so the same options always give the same variant.
 */
export function optionsVariant(options: Partial<CaptureOptions>, device: DeviceType): string | undefined {
  const fields = canonical(options, device);
  if (Object.keys(fields).length === 0) return undefined;
  return createHash('sha256').update(JSON.stringify(fields), 'utf8').digest('hex').slice(0, 32);
}

/** The selectors a capture hands to the page, with the request field each came from (for hints). */
export function selectorsOf(options: Partial<CaptureOptions>): { field: string; selector: string }[] {
  return [
    ...(options.selector === undefined ? [] : [{ field: 'selector', selector: options.selector }]),
    ...(options.waitForSelector === undefined ? [] : [{ field: 'waitForSelector', selector: options.waitForSelector }]),
    ...(options.hideSelectors ?? []).map((selector, index) => ({ field: `hideSelectors[${index}]`, selector })),
  ];
}
