import { route } from '#shared/http/route.ts';
import { previousSessionToken } from '#shared/http/cookies.ts';
import { signedInReply } from '#shared/http/session-replies.ts';
import * as routes from '#shared/routes/sign-in.ts';
import { verifyEmailCode } from '#shared/services/sign-in/email-codes.ts';
import { rateLimit, rateTableLimiter } from '#shared/wiring/rate-limit.ts';
import { accountDeps, emailCodeStore, sessionDeps } from '#shared/wiring/sign-in.ts';

/** POST /api/v1/auth/email-code/verify: a right code signs in (a new session cookie), creating the account where allowed. */
export const handler = route(
  routes.verifyEmailCode,
  async ({ body, event }) => {
    const deps = { limiter: rateTableLimiter(), codes: emailCodeStore(), accounts: accountDeps(), sessions: sessionDeps() };
    const issued = await verifyEmailCode(deps, { ...body, userAgent: event.headers?.['user-agent'], previousToken: previousSessionToken(event) });
    return signedInReply(event, issued);
  },
  { rateLimit },
);
