/** The capture options beyond URL, device and scheme, and the canonical form the cache keys them by. */
import { createHash } from 'node:crypto';
import type { ScreenshotRequest } from '#shared/schemas/screenshot.ts';
import { DEVICES } from '#shared/services/capture/devices.ts';
import type { DeviceType } from '#shared/services/capture/devices.ts';

export type CaptureOptions = Pick<
  ScreenshotRequest,
  | 'fullPage'
  | 'selector'
  | 'waitForSelector'
  | 'delay'
  | 'hideSelectors'
  | 'scale'
  | 'blockBanners'
  | 'blockAds'
  | 'viewport'
  | 'userAgent'
  | 'css'
  | 'click'
  | 'reducedMotion'
  | 'redact'
>;

/** What signs the capture in: never cached, logged or part of a key. */
export type CaptureCredentials = Pick<ScreenshotRequest, 'headers' | 'cookies'>;

export const DEFAULT_OPTIONS: CaptureOptions = { fullPage: false, delay: 0, hideSelectors: [], blockBanners: false, blockAds: false, reducedMotion: false };

const OPTION_NAMES = [
  'fullPage',
  'selector',
  'waitForSelector',
  'delay',
  'hideSelectors',
  'scale',
  'blockBanners',
  'blockAds',
  'viewport',
  'userAgent',
  'css',
  'click',
  'reducedMotion',
  'redact',
] as const satisfies readonly (keyof CaptureOptions)[];

export function captureOptionsOf(request: Partial<CaptureOptions>): CaptureOptions {
  const given = Object.fromEntries(OPTION_NAMES.filter((name) => request[name] !== undefined).map((name) => [name, request[name]]));
  return { ...DEFAULT_OPTIONS, ...given };
}

/** The request's headers and cookies, or undefined when it has none (an empty list is none). */
export function credentialsOf(request: CaptureCredentials): CaptureCredentials | undefined {
  const headers = request.headers && Object.keys(request.headers).length > 0 ? request.headers : undefined;
  const cookies = request.cookies?.length ? request.cookies : undefined;
  if (!headers && !cookies) return undefined;
  return { ...(headers ? { headers } : {}), ...(cookies ? { cookies } : {}) };
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
  const viewport = options.viewport;
  if (viewport && (viewport.width !== DEVICES[device].width || viewport.height !== DEVICES[device].height)) out.viewport = [viewport.width, viewport.height];
  if (options.userAgent !== undefined) out.userAgent = options.userAgent;
  if (options.css) out.css = options.css;
  if (options.click !== undefined) out.click = options.click;
  if (options.reducedMotion) out.reducedMotion = true;
  // Kinds are a set: order and repeats change nothing.
  if (options.redact?.length) out.redact = [...new Set(options.redact)].sort();
  return out;
}

/** A short hash of the options that differ from the defaults (keys in a fixed order), or undefined when none do. */
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
    ...(options.click === undefined ? [] : [{ field: 'click', selector: options.click }]),
    ...(options.hideSelectors ?? []).map((selector, index) => ({ field: `hideSelectors[${index}]`, selector })),
  ];
}
