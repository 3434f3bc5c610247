import { route } from '#shared/http/route.ts';
import { readEvent, takeInRelease } from '#shared/services/intake/intake.ts';
import { idempotency } from '#shared/wiring/idempotency.ts';
import { intakeDeps } from '#shared/wiring/intake.ts';
import { rateLimit } from '#shared/wiring/rate-limit.ts';
import { verifyWebhook } from '#shared/wiring/webhook-auth.ts';
import * as routes from '#shared/routes/source-apps.ts';

/** POST /api/v1/source-apps/{sourceAppId}/intake: a source app's signed release event, taken in as a draft (202). */
export const handler = route(
  routes.takeInRelease,
  async ({ body, principal }) => takeInRelease(intakeDeps(), { source: principal, event: readEvent(principal, body) }),
  { rateLimit, verifyWebhook, idempotency },
);
