import { route } from '#shared/http/route.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { requestEmailCode } from '#shared/services/sign-in/email-codes.ts';
import { rateLimit, rateTableLimiter } from '#shared/wiring/rate-limit.ts';
import { signInMailQueue } from '#shared/wiring/sign-in-queue.ts';

/** POST /api/v1/auth/email-code: queues a code for the address; the same answer whether or not it has an account. */
export const handler = route(routes.sendEmailCode, async ({ body }) => requestEmailCode({ limiter: rateTableLimiter(), queue: signInMailQueue() }, body), {
  rateLimit,
});
