/** Schemas of POST /api/screenshot and the internal cache purge. */
import * as v from 'valibot';

export const MAX_TARGET_URL_LENGTH = 4096;

const TargetUrl = v.pipe(
  v.string(),
  v.url(),
  v.maxLength(MAX_TARGET_URL_LENGTH),
  v.description(
    'Absolute http or https URL of a publicly reachable page, without credentials. Normalised before use (lower-case host, default port and fragment removed).',
  ),
);

export const DeviceTypeSchema = v.pipe(
  v.picklist(['desktop', 'mobile']),
  v.description('desktop: 1920×1080 viewport, PNG 1920×1080. mobile: 375×667 viewport at device scale factor 2 with touch and a phone user agent, PNG 750×1334.'),
);

export const ColorSchemeSchema = v.pipe(v.picklist(['light', 'dark']), v.description('Sent to the page as the prefers-color-scheme media feature.'));

export const StrategySchema = v.pipe(
  v.picklist(['local-chromium', 'remote-cdp']),
  v.description('Capture backend that produced the image: the bundled Chromium, or a remote browser over CDP.'),
);

export const ScreenshotRequest = v.strictObject({
  url: TargetUrl,
  deviceType: v.optional(DeviceTypeSchema, 'desktop'),
  colorScheme: v.optional(ColorSchemeSchema, 'light'),
  forceRefresh: v.optional(
    v.pipe(v.boolean(), v.description('true bypasses the cache, captures the page again and replaces the cached capture.')),
    false,
  ),
});
export type ScreenshotRequest = v.InferOutput<typeof ScreenshotRequest>;

export const ScreenshotResponse = v.object({
  screenshot: v.pipe(v.string(), v.description('Base64-encoded PNG bytes, without a data: URI prefix.')),
  url: v.pipe(v.string(), v.url(), v.description('The normalised URL that was captured (the cache key, with deviceType and colorScheme).')),
  cached: v.pipe(v.boolean(), v.description('true when the image was served from the cache, false when the page was captured for this request.')),
  strategy: v.optional(StrategySchema),
  deviceType: v.optional(DeviceTypeSchema),
  colorScheme: v.optional(ColorSchemeSchema),
});
export type ScreenshotResponse = v.InferOutput<typeof ScreenshotResponse>;

export const CachePurgeRequest = v.pipe(
  v.strictObject({
    url: v.optional(v.pipe(v.string(), v.url(), v.description('Purge every cached capture (all devices and colour schemes) of this URL.'))),
    all: v.optional(v.pipe(v.literal(true), v.description('Purge the whole capture cache.'))),
  }),
  v.check((body) => (body.url === undefined) !== (body.all === undefined), 'send either {"url": "…"} or {"all": true}'),
);
export type CachePurgeRequest = v.InferOutput<typeof CachePurgeRequest>;

export const CachePurgeResponse = v.object({
  purged: v.pipe(v.number(), v.integer(), v.description('Cache entries removed.')),
  url: v.optional(v.pipe(v.string(), v.description('The normalised URL purged; absent for a full purge.'))),
});
export type CachePurgeResponse = v.InferOutput<typeof CachePurgeResponse>;
