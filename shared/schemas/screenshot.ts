/** Schemas of POST /api/screenshot and the internal cache purge. */
import * as v from 'valibot';
import { CredentialFields, MAX_CREDENTIAL_BYTES, TOO_MANY_CREDENTIAL_BYTES, credentialBytes } from '#shared/schemas/capture-credentials.ts';
import { RedactField, RedactionsField } from '#shared/schemas/redaction.ts';

export * from '#shared/schemas/capture-credentials.ts';

export const MAX_TARGET_URL_LENGTH = 4096;

export const TargetUrl = v.pipe(
  v.string(),
  v.url(),
  v.maxLength(MAX_TARGET_URL_LENGTH),
  v.description(
    'Absolute http or https URL of a publicly reachable page, without credentials. Normalised before use (lower-case host, default port and fragment removed).',
  ),
);

export const DeviceTypeSchema = v.pipe(
  v.picklist(['desktop', 'mobile']),
  v.description(
    'desktop: 1920×1080 viewport, PNG 1920×1080. mobile: 375×667 viewport at device scale factor 2 with touch and a phone user agent, PNG 750×1334.',
  ),
);

export const ColorSchemeSchema = v.pipe(v.picklist(['light', 'dark']), v.description('Sent to the page as the prefers-color-scheme media feature.'));

export const StrategySchema = v.pipe(
  v.picklist(['local-chromium', 'remote-cdp']),
  v.description('Capture backend that produced the image: the bundled Chromium, or a remote browser over CDP.'),
);

export const MAX_SELECTOR_LENGTH = 512;
export const MAX_HIDE_SELECTORS = 20;
export const MAX_DELAY_MS = 10_000;
/** Tallest PNG a full-page or element capture gives, in image pixels (Chromium's largest texture side). */
export const MAX_CAPTURE_HEIGHT_PX = 16_384;
/** Widest PNG an element capture gives, in image pixels. */
export const MAX_CAPTURE_WIDTH_PX = 16_384;
/** Most image pixels a capture may have: 1920 × 16,384, so a 3× capture is cut sooner. */
export const MAX_CAPTURE_PIXELS = 1920 * MAX_CAPTURE_HEIGHT_PX;

// Syntax is checked by the browser's own querySelector, with the selector passed as data; this
// only bounds the text. Control characters have no place in a selector.
const Selector = (what: string) =>
  v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(MAX_SELECTOR_LENGTH),
    v.regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters'),
    v.description(
      `${what} A CSS selector of at most ${MAX_SELECTOR_LENGTH} characters, as document.querySelector takes it; an invalid one is 400 invalid_request.`,
    ),
  );

export const VIEWPORT_BOUNDS = { width: { min: 320, max: 3840 }, height: { min: 240, max: 2160 } } as const;
export const MAX_USER_AGENT_LENGTH = 512;
export const MAX_CSS_LENGTH = 20_000;

/**
 * The capture options beyond URL, device and scheme. Each one is part of the cache key
 * (services/capture/options.ts); a new option is added here and there.
 */
export const CaptureOptionFields = {
  fullPage: v.optional(
    v.pipe(
      v.boolean(),
      v.description(
        `true captures the whole scrollable page instead of the viewport. The page is scrolled to its end first, so lazy images and content loaded on scroll are there, then back to the top; fixed and sticky headers appear once. At most ${MAX_CAPTURE_HEIGHT_PX} image pixels tall and ${MAX_CAPTURE_PIXELS} pixels in all: a taller page is cut and the answer says truncated: true.`,
      ),
    ),
    false,
  ),
  selector: v.optional(
    Selector(
      `Captures only the box of the first element that matches, once the page is ready, below the fold too. At most ${MAX_CAPTURE_WIDTH_PX} × ${MAX_CAPTURE_HEIGHT_PX} image pixels and ${MAX_CAPTURE_PIXELS} pixels in all: a larger element is cut from its top left and the answer says truncated: true. Matching nothing is 404 not_found.`,
    ),
  ),
  waitForSelector: v.optional(
    Selector('Takes the picture only once an element matching it exists and is visible; if none does within the capture time-out, 408 upstream_timeout.'),
  ),
  delay: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.maxValue(MAX_DELAY_MS),
      v.description(`Milliseconds to wait after the page is ready (0 to ${MAX_DELAY_MS}), within the capture time-out.`),
    ),
    0,
  ),
  hideSelectors: v.optional(
    v.pipe(
      v.array(Selector('Elements matching it are hidden (visibility: hidden, from an injected style sheet).')),
      v.maxLength(MAX_HIDE_SELECTORS),
      v.description(`At most ${MAX_HIDE_SELECTORS} CSS selectors; every matching element is hidden before the picture.`),
    ),
    [],
  ),
  blockBanners: v.optional(
    v.pipe(
      v.boolean(),
      v.description(
        'true removes cookie-consent dialogs from the picture: refused (reject, necessary only) or closed where they offer it, never accepted, subscribed to or paid; what stays is hidden with its backdrop. report.consent says which.',
      ),
    ),
    false,
  ),
  blockAds: v.optional(
    v.pipe(
      v.boolean(),
      v.description('true blocks requests to ad and tracker hosts and hides ad slots, by the AdGuard Base list (EasyList + AdGuard English).'),
    ),
    false,
  ),
  scale: v.optional(
    v.pipe(v.picklist([1, 2, 3]), v.description('Device scale factor: the PNG has this many pixels per CSS pixel. Default 1 for desktop, 2 for mobile.')),
  ),
  viewport: v.optional(
    v.pipe(
      v.strictObject({
        width: v.pipe(v.number(), v.integer(), v.minValue(VIEWPORT_BOUNDS.width.min), v.maxValue(VIEWPORT_BOUNDS.width.max)),
        height: v.pipe(v.number(), v.integer(), v.minValue(VIEWPORT_BOUNDS.height.min), v.maxValue(VIEWPORT_BOUNDS.height.max)),
      }),
      v.description(
        `The viewport in CSS pixels (width ${VIEWPORT_BOUNDS.width.min}–${VIEWPORT_BOUNDS.width.max}, height ${VIEWPORT_BOUNDS.height.min}–${VIEWPORT_BOUNDS.height.max}), instead of the device type's; deviceType still decides mobile emulation, the user agent and the default scale.`,
      ),
    ),
  ),
  userAgent: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(MAX_USER_AGENT_LENGTH),
      v.regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters'),
      v.description(`The User-Agent the page sees, at most ${MAX_USER_AGENT_LENGTH} characters, instead of the device type's Chrome user agent.`),
    ),
  ),
  css: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(MAX_CSS_LENGTH),
      v.description(
        `A style sheet of at most ${MAX_CSS_LENGTH} characters applied to the page before the picture, as an adopted style sheet: its text is only ever CSS, it cannot close a tag or run script.`,
      ),
    ),
  ),
  click: v.optional(
    Selector('Clicks the first element that matches once the page is ready, before waitForSelector and delay. Matching nothing is 404 not_found.'),
  ),
  reducedMotion: v.optional(
    v.pipe(v.boolean(), v.description('true sends prefers-reduced-motion: reduce to the page and finishes CSS animations and transitions before the picture.')),
    false,
  ),
  ...CredentialFields,
  redact: RedactField,
};

const ScreenshotFields = v.strictObject({
  url: TargetUrl,
  deviceType: v.optional(DeviceTypeSchema, 'desktop'),
  colorScheme: v.optional(ColorSchemeSchema, 'light'),
  forceRefresh: v.optional(v.pipe(v.boolean(), v.description('true bypasses the cache, captures the page again and replaces the cached capture.')), false),
  ...CaptureOptionFields,
});

export const ScreenshotRequest = v.pipe(
  ScreenshotFields,
  v.forward(
    v.check((request) => credentialBytes({ headers: request.headers }) <= MAX_CREDENTIAL_BYTES, TOO_MANY_CREDENTIAL_BYTES),
    ['headers'],
  ),
  v.forward(
    v.check((request) => credentialBytes(request) <= MAX_CREDENTIAL_BYTES, TOO_MANY_CREDENTIAL_BYTES),
    ['cookies'],
  ),
);
export type ScreenshotRequest = v.InferOutput<typeof ScreenshotRequest>;

/** With redact: what the picture shows that redaction cannot read (docs/capture.md, "Redaction"). */
export const UnreadMediaSchema = v.pipe(
  v.object({
    images: v.pipe(v.number(), v.integer()),
    canvases: v.pipe(v.number(), v.integer()),
    videos: v.pipe(v.number(), v.integer()),
    svgImages: v.pipe(v.number(), v.integer()),
  }),
  v.description(
    'With redact: the loaded img, canvas, video and SVG image elements drawn in the picture. Text drawn inside them is pixels, not text: redaction neither searches nor covers it, so check these regions yourself.',
  ),
);
export type UnreadMedia = v.InferOutput<typeof UnreadMediaSchema>;

/** What a capture did and found: the answer's `report` (docs/capture.md, "The report"). */
export const CaptureReportSchema = v.pipe(
  v.object({
    status: v.optional(
      v.pipe(v.number(), v.integer(), v.description("HTTP status of the page's document; 400 and over means the picture shows an error page.")),
    ),
    challenge: v.optional(
      v.pipe(
        v.string(),
        v.description(
          'Set when the page is a bot challenge or block page rather than the page asked for: the vendor whose signature matched (cloudflare, datadome, perimeterx, imperva, akamai, aws-waf, captcha).',
        ),
      ),
    ),
    consent: v.optional(
      v.pipe(
        v.picklist(['opted-out', 'closed', 'hidden', 'shown', 'none']),
        v.description(
          "With blockBanners, what became of the page's consent dialog, as seen after the fact: opted-out (a control that refuses was used and the dialog was gone afterwards), closed (its close control was used and it was gone afterwards; no choice was recorded), hidden (it was hidden, with what it left, without a choice: a wall that only accepts or pays, or one whose refusal did not close it), shown (found, but it could be neither refused nor hidden: it is in the picture), or none (no consent dialog was found). No control that accepts, subscribes or pays is ever clicked.",
        ),
      ),
    ),
    images: v.pipe(
      v.object({ found: v.pipe(v.number(), v.integer()), loaded: v.pipe(v.number(), v.integer()) }),
      v.description('Images (img elements) within the picture, and how many of them had loaded; fewer loaded than found means broken or missing images.'),
    ),
    fontsReady: v.pipe(v.boolean(), v.description("true when the page's web fonts had all loaded when the picture was taken.")),
    requests: v.pipe(
      v.object({ total: v.pipe(v.number(), v.integer()), refused: v.pipe(v.number(), v.integer()), blockedAds: v.pipe(v.number(), v.integer()) }),
      v.description(
        "The page's requests: in all, refused by the address guard (private and other unreachable targets), and dropped as ads or trackers (blockAds).",
      ),
    ),
    settled: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          'true when, as the picture was taken, no request of the page was in flight and the page had no timer due within a second, no animation-frame callback and no DOM change for the quiet window (docs/capture.md, "Settling"). false: see pending.',
        ),
      ),
    ),
    pending: v.optional(
      v.pipe(
        v.object({
          requests: v.pipe(
            v.number(),
            v.integer(),
            v.description('Requests still in flight (a stalled font or image, a slow API), not counting streams, sockets and media.'),
          ),
          changing: v.pipe(v.boolean(), v.description('true when the page was still running timers or animation frames or changing its DOM.')),
        }),
        v.description('With settled false: what the page was still doing when the picture was taken, within the settling budget.'),
      ),
    ),
    unread: v.optional(UnreadMediaSchema),
  }),
  v.description('What the capture did and found, measured when the picture was taken; cached with it.'),
);
export type CaptureReport = v.InferOutput<typeof CaptureReportSchema>;

export const ScreenshotResponse = v.object({
  screenshot: v.pipe(v.string(), v.description('Base64-encoded PNG bytes, without a data: URI prefix.')),
  url: v.pipe(
    v.string(),
    v.url(),
    v.description(
      'The URL of the document in the picture: the normalised URL asked for (the cache key, with deviceType and colorScheme), or where a redirect or a click took the page.',
    ),
  ),
  cached: v.pipe(v.boolean(), v.description('true when the image was served from the cache, false when the page was captured for this request.')),
  strategy: v.optional(StrategySchema),
  deviceType: v.optional(DeviceTypeSchema),
  colorScheme: v.optional(ColorSchemeSchema),
  truncated: v.optional(
    v.pipe(
      v.boolean(),
      v.description(
        'With fullPage or selector: true when the page (or the element) was larger than the maximum capture size and was cut there, keeping its top left.',
      ),
    ),
  ),
  capturedHeight: v.optional(
    v.pipe(v.number(), v.integer(), v.description('With fullPage or selector: the height of the captured part of the page or element, in CSS pixels.')),
  ),
  capturedWidth: v.optional(
    v.pipe(v.number(), v.integer(), v.description('With selector, when the element was cut in width: the width of the captured part, in CSS pixels.')),
  ),
  report: v.optional(CaptureReportSchema),
  redactions: RedactionsField,
});
export type ScreenshotResponse = v.InferOutput<typeof ScreenshotResponse>;

export const CachePurgeRequest = v.pipe(
  v.strictObject({
    url: v.optional(v.pipe(v.string(), v.url(), v.description('Purge every cached capture (all devices, colour schemes and capture options) of this URL.'))),
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
