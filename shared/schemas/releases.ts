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

export const Release = v.object({
  id: v.string(),
  title: v.string(),
  benefitStatement: v.string(),
  description: v.optional(v.string()),
  audience: v.optional(v.string()),
  sourceUrls: v.array(v.string()),
  productSurfaceId: v.optional(v.string()),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
});
export type Release = v.InferOutput<typeof Release>;

export const ReleaseList = v.object({
  releases: v.array(Release),
  nextCursor: v.optional(
    v.pipe(v.string(), v.description('Present when older releases remain: send it as `cursor` to get the next page. Absent on the last page.')),
  ),
});
export type ReleaseList = v.InferOutput<typeof ReleaseList>;
