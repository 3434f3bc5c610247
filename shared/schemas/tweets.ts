import * as v from 'valibot';
import { ErrorEnvelope } from '#shared/schemas/errors.ts';

/** Status IDs are unsigned 64-bit, so at most 20 digits; longer is refused before the upstream is asked. */
export const TWEET_ID_MAX_LENGTH = 20;

export const TweetParams = v.object({
  id: v.pipe(
    v.string(),
    v.maxLength(TWEET_ID_MAX_LENGTH, `must have at most ${TWEET_ID_MAX_LENGTH} digits`),
    v.regex(/^[0-9]+$/, 'must be a numeric status ID (digits only)'),
    v.description('Numeric status ID of the tweet, e.g. 1641086480675225601.'),
    v.examples(['1641086480675225601']),
  ),
});
export type TweetParams = v.InferOutput<typeof TweetParams>;

/** As the upstream returns it; inner fields are not part of the contract. */
export const TweetPayload = v.pipe(
  v.record(v.string(), v.unknown()),
  v.description(
    'Public tweet payload as returned by the syndication API (`__typename: "Tweet"`, `id_str`, `text`, `user`, `mediaDetails` with each medium\'s `type` (photo, video, animated_gif) and poster, `video`, `quoted_tweet`, a link preview in `card.binding_values`, …).',
  ),
);

export const TweetResponse = v.pipe(
  v.object({
    data: v.pipe(v.nullable(TweetPayload), v.description('The tweet; null when unavailable.')),
    error: v.optional(v.pipe(v.string(), v.description('Present only when data is null.'))),
  }),
  v.title('TweetResponse'),
);
export type TweetResponse = v.InferOutput<typeof TweetResponse>;

/** Also carries `data: null`, so one body type fits success and failure. */
export const TweetErrorEnvelope = v.pipe(
  v.object({ ...ErrorEnvelope.entries, data: v.pipe(v.null(), v.description('Always null on failure.')) }),
  v.title('TweetErrorEnvelope'),
);

/** 500 of this route: `upstream_failed` carries `data: null`; an unexpected `internal_error` is the plain envelope. */
export const TweetFailureEnvelope = v.pipe(
  v.object({ ...ErrorEnvelope.entries, data: v.optional(v.pipe(v.null(), v.description('null when the tweet upstream failed.'))) }),
  v.title('TweetFailureEnvelope'),
);
