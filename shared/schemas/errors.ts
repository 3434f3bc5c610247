import * as v from 'valibot';
import { ERROR_CODE_LIST } from '#shared/errors.ts';

const integer = v.pipe(v.number(), v.integer());
const plan = v.picklist(['free', 'pro', 'business', 'enterprise']);

export const ErrorEnvelope = v.pipe(
  v.object({
    error: v.pipe(v.string(), v.description('Human-readable message.')),
    code: v.pipe(v.picklist(ERROR_CODE_LIST), v.description('Stable machine code, safe to branch on.')),
    message: v.pipe(v.string(), v.description('Same text as error.')),
    hint: v.pipe(v.string(), v.description('How to resolve the error.')),
    status: v.pipe(integer, v.description('HTTP status repeated in the body.')),
    documentation: v.pipe(v.string(), v.url(), v.description('Link to the error reference.')),
  }),
  v.title('ErrorEnvelope'),
);

export const RateLimitErrorEnvelope = v.pipe(
  v.object({
    ...ErrorEnvelope.entries,
    retryAfter: v.pipe(integer, v.description('Seconds to wait before retrying.')),
  }),
  v.title('RateLimitErrorEnvelope'),
);

export const EntitlementErrorEnvelope = v.pipe(
  v.object({ ...ErrorEnvelope.entries, currentPlan: plan, requiredPlan: plan, feature: v.string() }),
  v.title('EntitlementErrorEnvelope'),
);

export const QuotaErrorEnvelope = v.pipe(v.object({ ...ErrorEnvelope.entries, limit: integer, quota: v.string() }), v.title('QuotaErrorEnvelope'));
