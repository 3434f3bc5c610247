import * as v from 'valibot';
import { HttpUrl, PlainText, idempotencyKeyHeaders, pageQuery } from '#shared/schemas/common.ts';

const text = (min: number, max: number) => v.pipe(v.string(), v.minLength(min), v.maxLength(max));

export const ReleaseCreate = v.strictObject({
  title: v.pipe(text(1, 160), v.description('Release title, 1–160 characters.')),
  benefitStatement: v.pipe(text(1, 500), v.description('What users gain, 1–500 characters.')),
  description: v.optional(v.pipe(PlainText(10_000), v.description('Plain text, up to 10000 characters; markup is rejected.'))),
  audience: v.optional(v.pipe(text(0, 1000), v.description('Who the release is for, up to 1000 characters.'))),
  sourceUrls: v.optional(v.pipe(v.array(HttpUrl), v.maxLength(20), v.description('Absolute http(s) URLs, at most 20.'))),
  productSurfaceId: v.optional(v.pipe(text(1, 128), v.description('A product surface of the same workspace.'))),
});
export type ReleaseCreate = v.InferOutput<typeof ReleaseCreate>;

export const ReleaseParams = v.object({ releaseId: v.pipe(v.string(), v.uuid('must be a release id (a UUID)'), v.description('Release id.')) });

export const ReleaseListQuery = pageQuery(50);

export const IdempotencyHeaders = idempotencyKeyHeaders(
  'Makes the create safe to retry: a repeat with the same body returns the original release, with 200 and `Idempotent-Replayed: true`.',
);

export const RELEASE_STATES = ['draft'] as const;

export const ReleaseIntake = v.pipe(
  v.object({
    sourceAppId: v.pipe(v.string(), v.description('The source app whose webhook delivered it.')),
    provider: v.pipe(v.string(), v.description("The app's provider as registered (github, generic, …).")),
    externalReleaseId: v.pipe(v.string(), v.description("The provider's id of the release: GitHub's release id, or a Standard Webhooks event's data.id.")),
    url: v.optional(v.pipe(v.string(), v.description("The release's page at the provider (GitHub's html_url, a Standard Webhooks event's data.url)."))),
    deliveryId: v.pipe(v.string(), v.description('The delivery that last wrote the draft (X-GitHub-Delivery or webhook-id).')),
    updatedAt: v.pipe(v.string(), v.isoTimestamp(), v.description('When that delivery was taken in.')),
  }),
  v.description(
    'Where a release taken in by a source app came from (docs/identity.md, "Release intake"). Absent on releases created with POST /api/v1/releases.',
  ),
);
export type ReleaseIntake = v.InferOutput<typeof ReleaseIntake>;

export const Release = v.object({
  id: v.string(),
  title: v.string(),
  benefitStatement: v.string(),
  description: v.optional(v.string()),
  audience: v.optional(v.string()),
  sourceUrls: v.array(v.string()),
  productSurfaceId: v.optional(v.string()),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  state: v.optional(
    v.pipe(
      v.picklist(RELEASE_STATES),
      v.description('`draft`: taken in from a source app’s webhook, not yet reviewed by a person. Absent on releases created with POST /api/v1/releases.'),
    ),
  ),
  intake: v.optional(ReleaseIntake),
});
export type Release = v.InferOutput<typeof Release>;

export const ReleaseList = v.object({
  releases: v.array(Release),
  nextCursor: v.optional(
    v.pipe(v.string(), v.description('Present when older releases remain: send it as `cursor` to get the next page. Absent on the last page.')),
  ),
});
export type ReleaseList = v.InferOutput<typeof ReleaseList>;
