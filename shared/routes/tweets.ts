/** The row of functions/tweets/. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { defineRow } from '#shared/routes/row.ts';
import { TweetParams } from '#shared/schemas/tweets.ts';

export const getTweet = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getTweet,
  handler: 'functions/tweets/get-tweet.ts',
  auth: 'none',
  memory: 256,
  timeout: 10,
  access: {},
  listed: true,
  tag: 'Tweets',
  params: TweetParams,
  errors: [400, 404, 500],
}));
