/**
 * The per-client rate limit counted in the rate table: what a handler whose row publishes
 * `x-easel-rate-limit` passes to route() as `uses.rateLimit`.
 */
import { dynamo } from '#shared/wiring/aws.ts';
import { config } from '#shared/config.ts';
import { perClientRateLimit } from '#shared/http/rate-limit.ts';
import { createRateLimiter } from '#shared/rate-limiter.ts';
import type { RateLimiter, RateLimitRule } from '#shared/rate-limiter.ts';
import { dynamoCounterStore } from '#shared/store/rate-counters.ts';

let limiter: RateLimiter | undefined;
/** The container's one limiter on the rate table: per-client rates and per-workspace quotas. */
export const rateTableLimiter = (): RateLimiter => (limiter ??= createRateLimiter(dynamoCounterStore(dynamo, config().tables.rate)));

/** Per-client limiting of `rule`, counted atomically in the rate table. */
export const rateTableLimit = (operationId: string, rule: RateLimitRule) => perClientRateLimit(operationId, rule, rateTableLimiter);
