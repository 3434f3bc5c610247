/** Schemas of a release's shots: the run request, and a shot as answered (docs/shots.md). */
import * as v from 'valibot';
import { httpUrl } from '#shared/schemas/common.ts';
import { ErrorEnvelope } from '#shared/schemas/errors.ts';
import { CaptureOptionFields, CaptureReportSchema, ColorSchemeSchema, DeviceTypeSchema, TargetUrl } from '#shared/schemas/screenshot.ts';

/** Shots one run may queue, after the matrix multiplies them. */
export const MAX_SHOTS_PER_RUN = 100;
export const MAX_SHOT_NAME_LENGTH = 100;
export const MAX_MASK_RECTS = 20;
export const DEFAULT_THRESHOLD = 0.1;

// Headers and cookies sign a capture in: a shot gets them from its source app's secret, never from
// the request, so none is stored with the shot or in a queue message.
const { headers: _headers, cookies: _cookies, ...SHOT_CAPTURE_OPTIONS } = CaptureOptionFields;

export const ShotName = v.pipe(
  v.string(),
  v.minLength(1, 'a shot name must not be empty'),
  v.maxLength(MAX_SHOT_NAME_LENGTH, `a shot name has at most ${MAX_SHOT_NAME_LENGTH} characters`),
  v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a shot name has only letters, digits, dots, hyphens and underscores, and starts with a letter or digit'),
  v.description(
    `Names the shot in the release, 1–${MAX_SHOT_NAME_LENGTH} characters of A–Z, a–z, 0–9, ".", "_" and "-". A later run's shot of the same name replaces it; the next release's shot of the same name is compared with it.`,
  ),
);

const pixels = (what: string, min: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(65_535), v.description(what));

const MaskRect = v.strictObject({
  x: pixels('Left edge, in image pixels of the PNG.', 0),
  y: pixels('Top edge, in image pixels of the PNG.', 0),
  width: pixels('Width in image pixels.', 1),
  height: pixels('Height in image pixels.', 1),
});

const ShotMask = v.pipe(
  v.strictObject({
    selectors: v.optional(
      v.pipe(
        CaptureOptionFields.hideSelectors,
        v.description('Elements hidden in the capture itself (as hideSelectors), so what they show never counts as a change. At most 20.'),
      ),
    ),
    rects: v.optional(
      v.pipe(
        v.array(MaskRect),
        v.maxLength(MAX_MASK_RECTS, `at most ${MAX_MASK_RECTS} rectangles`),
        v.description(`At most ${MAX_MASK_RECTS} rectangles painted over both pictures before they are compared; the stored picture is left as captured.`),
      ),
    ),
  }),
  v.description('What the comparison with the previous release leaves out: a clock, an avatar, anything that changes on every run.'),
);

export const Shot = v.strictObject({
  name: ShotName,
  url: v.pipe(TargetUrl, httpUrl()),
  deviceType: v.optional(DeviceTypeSchema, 'desktop'),
  colorScheme: v.optional(ColorSchemeSchema, 'light'),
  ...SHOT_CAPTURE_OPTIONS,
  threshold: v.optional(
    v.pipe(
      v.number(),
      v.minValue(0),
      v.maxValue(1),
      v.description(
        `How far apart two pixels' colours may be and still count as the same, 0 (exact) to 1 (pixelmatch's threshold, in its YIQ colour distance). Default ${DEFAULT_THRESHOLD}.`,
      ),
    ),
    DEFAULT_THRESHOLD,
  ),
  mask: v.optional(ShotMask),
});
export type Shot = v.InferOutput<typeof Shot>;
/** A shot's capture options: what it hands the screenshot service beyond URL, device and scheme. */
export type ShotOptions = Omit<Shot, 'name' | 'url' | 'deviceType' | 'colorScheme' | 'threshold' | 'mask'>;

const distinct = <T>(values: readonly T[]) => new Set(values).size === values.length;

export const ShotMatrix = v.pipe(
  v.strictObject({
    deviceTypes: v.optional(
      v.pipe(v.array(DeviceTypeSchema), v.minLength(1), v.check(distinct, 'each device type once'), v.description('Each shot once per device type.')),
    ),
    colorSchemes: v.optional(
      v.pipe(v.array(ColorSchemeSchema), v.minLength(1), v.check(distinct, 'each colour scheme once'), v.description('Each shot once per colour scheme.')),
    ),
  }),
  v.description(
    'Multiplies every shot by device type and colour scheme; each copy is named `<name>-<deviceType>-<colorScheme>` (only the dimensions given), and its own deviceType or colorScheme is replaced.',
  ),
);
export type ShotMatrix = v.InferOutput<typeof ShotMatrix>;

export const ShotRunRequest = v.optional(
  v.strictObject({
    shots: v.optional(
      v.pipe(
        v.array(Shot),
        v.minLength(1, 'give at least one shot, or leave shots out to photograph the release’s sourceUrls'),
        v.maxLength(MAX_SHOTS_PER_RUN, `at most ${MAX_SHOTS_PER_RUN} shots a run`),
        v.description(
          `The shots to capture, at most ${MAX_SHOTS_PER_RUN} (after the matrix). Left out: one shot of each of the release's sourceUrls with the default options, named after its host and path.`,
        ),
      ),
    ),
    matrix: v.optional(ShotMatrix),
  }),
);
export type ShotRunRequest = v.InferOutput<typeof ShotRunRequest>;

export const SHOT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ShotStatus = (typeof SHOT_STATUSES)[number];

const int = (description: string) => v.pipe(v.number(), v.integer(), v.description(description));

export const ShotChanges = v.pipe(
  v.object({
    baseline: v.pipe(
      v.object({ releaseId: v.string(), assetId: v.string() }),
      v.description('The picture compared with: the same-named shot of the nearest earlier release of the workspace that has one done.'),
    ),
    ratio: v.pipe(v.number(), v.minValue(0), v.maxValue(1), v.description('Share of the compared area whose pixels changed, 0 to 1.')),
    pixels: int('Pixels that changed.'),
    width: int('Width of the compared area: the wider of the two pictures.'),
    height: int('Height of the compared area: the taller of the two pictures.'),
    sizeChanged: v.pipe(v.boolean(), v.description('true when the two pictures differ in size: every pixel outside the smaller one counts as changed.')),
    diffAssetId: v.pipe(
      v.string(),
      v.description(
        'The diff picture, an asset of the workspace (classification `release-shot-diff`): changed pixels red over a faded copy of the new picture.',
      ),
    ),
  }),
  v.description('What changed since the previous release; absent when no earlier release has a done shot of this name.'),
);

export const ShotView = v.object({
  name: v.string(),
  url: v.pipe(v.string(), v.description('The URL asked for.')),
  deviceType: DeviceTypeSchema,
  colorScheme: ColorSchemeSchema,
  status: v.pipe(v.picklist(SHOT_STATUSES), v.description('queued (waiting for a worker), running, done (the picture is stored), failed (see error).')),
  runId: v.pipe(v.string(), v.description('The run that queued this shot.')),
  queuedAt: v.pipe(v.string(), v.isoTimestamp()),
  startedAt: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  finishedAt: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  attempts: v.optional(int('Deliveries of the shot that a worker started on; more than one after a retry.')),
  assetId: v.optional(
    v.pipe(
      v.string(),
      v.description('Done: the picture, an asset of the workspace (classification `release-shot`); GET /api/v1/assets/{assetId}/download-url serves it.'),
    ),
  ),
  bytes: v.optional(int('Size of the PNG in bytes.')),
  width: v.optional(int('Width of the PNG in pixels.')),
  height: v.optional(int('Height of the PNG in pixels.')),
  drawnUrl: v.optional(v.pipe(v.string(), v.description('The document in the picture, when a redirect or a click took the page elsewhere.'))),
  truncated: v.optional(v.pipe(v.boolean(), v.description('With fullPage or selector: the page or element was cut at the largest capture.'))),
  report: v.optional(CaptureReportSchema),
  redactionCount: v.optional(int('With redact: the boxes drawn over what was found (the asset record keeps them).')),
  login: v.optional(
    v.pipe(v.object({ sourceAppId: v.string() }), v.description("The source app whose login (its secret's cookies and headers) the capture was sent with.")),
  ),
  changes: v.optional(ShotChanges),
  error: v.optional(v.pipe(ErrorEnvelope, v.description('Failed: why, as the error envelope POST /api/screenshot would have answered.'))),
});
export type ShotView = v.InferOutput<typeof ShotView>;

const StatusCounts = v.pipe(
  v.object({ queued: int('Queued.'), running: int('Running.'), done: int('Done.'), failed: int('Failed.') }),
  v.description('Shots by status.'),
);

export const ShotRun = v.object({
  releaseId: v.string(),
  runId: v.string(),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  shots: v.array(ShotView),
});
export type ShotRun = v.InferOutput<typeof ShotRun>;

export const ReleaseShots = v.object({
  releaseId: v.string(),
  counts: StatusCounts,
  shots: v.pipe(v.array(ShotView), v.description('Every shot of the release, by name.')),
});
export type ReleaseShots = v.InferOutput<typeof ReleaseShots>;

/** A queued shot as its SQS message names it; the options stay in the shot's item. */
export const ShotMessage = v.strictObject({
  workspaceId: v.pipe(v.string(), v.minLength(1)),
  releaseId: v.pipe(v.string(), v.uuid()),
  name: ShotName,
  runId: v.pipe(v.string(), v.uuid()),
});
export type ShotMessage = v.InferOutput<typeof ShotMessage>;
