/** The container's limiter on the rate table, and `route(row, fn, { rateLimit })`'s middleware. */
import { dynamo } from '#shared/wiring/dynamo.ts';
import { config } from '#shared/config.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import { perClientRateLimit } from '#shared/http/rate-limit.ts';
import type { PerClientRateLimitOptions } from '#shared/http/rate-limit.ts';
import { createRateLimiter } from '#shared/rate-limiter.ts';
import type { RateLimiter } from '#shared/rate-limiter.ts';
import { dynamoCounterStore } from '#shared/store/rate-counters.ts';

let limiter: RateLimiter | undefined;
/** One limiter for per-client rates and per-workspace quotas. */
export const rateTableLimiter = (): RateLimiter => (limiter ??= createRateLimiter(dynamoCounterStore(dynamo, config().tables.rate)));

export const rateLimit = (options: Omit<PerClientRateLimitOptions, 'limiter'>): HttpMiddleware => perClientRateLimit({ ...options, limiter: rateTableLimiter });
