/** Schemas of the release intake: the address, the providers' events, the answer (docs/identity.md, "Release intake"). */
import * as v from 'valibot';
import { HttpUrl } from '#shared/schemas/common.ts';
import { ErrorEnvelope } from '#shared/schemas/errors.ts';
import { Release } from '#shared/schemas/releases.ts';
import { ShotRun } from '#shared/schemas/shots.ts';

/** A GitHub release event is a few KB to 100 KB; its notes may reach GitHub's 125,000 characters. */
export const MAX_INTAKE_BYTES = 1024 * 1024;
/** Long enough for any delivery id seen (a GUID, `msg_…`), short enough to log. */
const MAX_DELIVERY_ID = 200;

export const IntakeParams = v.object({
  sourceAppId: v.pipe(v.string(), v.uuid('must be a source app id (a UUID)'), v.description('The source app: the id POST /api/v1/source-apps answered.')),
});

const header = (description: string, max = MAX_DELIVERY_ID) => v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(max), v.description(description)));

/** The signatures themselves are the security schemes'; these are what the answer depends on. */
export const IntakeHeaders = v.object({
  'x-github-event': header('GitHub: the event. `release` is taken in; `ping` and any other event are answered 202 and ignored.', 100),
  'x-github-delivery': header('GitHub: the delivery id. A redelivery repeats it and gets the first answer again.'),
  'webhook-id': header('Standard Webhooks: the message id, signed with the body. A retry repeats it and gets the first answer again.'),
  'webhook-timestamp': header('Standard Webhooks: seconds since the epoch, signed with the body; more than 5 minutes from the clock is refused.', 20),
});

/** Ids of the deliveries the verifier reads before validation. */
export const deliveryIdIssue = (id: string): string | undefined =>
  id.length > MAX_DELIVERY_ID ? `at most ${MAX_DELIVERY_ID} characters` : /[^\x21-\x7e]/.test(id) ? 'printable ASCII without spaces' : undefined;

export const IntakeBody = v.pipe(
  v.looseObject({}),
  v.description(
    "The provider's event as it signed it: GitHub's `release` event (with the webhook's content type `application/json`), or a Standard Webhooks event; a release is `StandardReleaseEvent`.",
  ),
);

const GitHubRelease = v.looseObject({
  id: v.pipe(v.union([v.pipe(v.number(), v.integer(), v.minValue(0)), v.pipe(v.string(), v.minLength(1), v.maxLength(100))]), v.transform(String)),
  tag_name: v.pipe(v.string(), v.minLength(1)),
  name: v.nullish(v.string()),
  body: v.nullish(v.string()),
  html_url: v.nullish(v.string()),
});

/** GitHub's `release` event, the fields taken in; GitHub sends many more. */
export const GitHubReleaseEvent = v.looseObject({ action: v.string(), release: GitHubRelease });
export type GitHubReleaseEvent = v.InferOutput<typeof GitHubReleaseEvent>;

export const STANDARD_RELEASE_TYPES = ['release.published', 'release.updated'] as const;

/** A Standard Webhooks event's type, read before the rest: other types are ignored. */
export const StandardEventType = v.looseObject({ type: v.pipe(v.string(), v.maxLength(200)) });

export const StandardReleaseEvent = v.pipe(
  v.strictObject({
    type: v.pipe(
      v.picklist(STANDARD_RELEASE_TYPES),
      v.description('`release.published` makes the draft (and queues its shots); `release.updated` rewrites it. Other types are answered 202 and ignored.'),
    ),
    timestamp: v.optional(v.pipe(v.string(), v.isoTimestamp(), v.description('When the event happened (Standard Webhooks).'))),
    data: v.strictObject({
      id: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("The release's id at the sender: the same id lands on the same draft.")),
      name: v.pipe(v.string(), v.minLength(1), v.maxLength(1000), v.description("The release's name: the draft's title (cut to 160 characters).")),
      notes: v.optional(
        v.pipe(
          v.string(),
          v.maxLength(125_000),
          v.description('Release notes, Markdown: the benefit statement and the plain-text description come from them.'),
        ),
      ),
      urls: v.optional(
        v.pipe(
          v.array(HttpUrl),
          v.maxLength(100),
          v.description("The release's pages; those on the app's allowedHosts become sourceUrls, beside those the notes link to."),
        ),
      ),
      url: v.optional(v.pipe(HttpUrl, v.description("The release's own page at the sender."))),
    }),
  }),
  v.title('StandardReleaseEvent'),
);
export type StandardReleaseEvent = v.InferOutput<typeof StandardReleaseEvent>;

export const INTAKE_RESULTS = ['created', 'updated', 'ignored'] as const;

export const IntakeAnswer = v.object({
  result: v.pipe(
    v.picklist(INTAKE_RESULTS),
    v.description('created: a new draft release; updated: the draft of this external release was rewritten; ignored: nothing written (see reason).'),
  ),
  deliveryId: v.pipe(v.string(), v.description('X-GitHub-Delivery or webhook-id.')),
  event: v.pipe(v.string(), v.description('What arrived: `release.published`, `release.edited`, `ping`, a Standard Webhooks type…')),
  reason: v.optional(v.pipe(v.string(), v.description('Why nothing was written, when ignored.'))),
  release: v.optional(v.pipe(Release, v.description('The draft as stored, when created or updated.'))),
  run: v.optional(v.pipe(ShotRun, v.description("The shots queued of a new draft's sourceUrls (desktop, light); absent when it has none."))),
  runError: v.optional(
    v.pipe(ErrorEnvelope, v.description('Why the new draft’s shots were not queued (a month’s quota spent, the queue down); the draft is kept.')),
  ),
});
export type IntakeAnswer = v.InferOutput<typeof IntakeAnswer>;
