/**
 * The container's limiter on the rate table, and the per-client rate limit counted in it for the
 * handlers of rows that publish `x-easel-rate-limit`: `route(row, fn, { rateLimit })`.
 */
import { dynamo } from '#shared/wiring/dynamo.ts';
import { config } from '#shared/config.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import { perClientRateLimit } from '#shared/http/rate-limit.ts';
import type { PerClientRateLimitOptions } from '#shared/http/rate-limit.ts';
import { createRateLimiter } from '#shared/rate-limiter.ts';
import type { RateLimiter } from '#shared/rate-limiter.ts';
import { dynamoCounterStore } from '#shared/store/rate-counters.ts';

let limiter: RateLimiter | undefined;
/** The container's one limiter on the rate table: per-client rates and per-workspace quotas. */
export const rateTableLimiter = (): RateLimiter => (limiter ??= createRateLimiter(dynamoCounterStore(dynamo, config().tables.rate)));

/** Per-client limiting of the row's rule, counted atomically in the rate table. */
export const rateLimit = (options: Omit<PerClientRateLimitOptions, 'limiter'>): HttpMiddleware =>
  perClientRateLimit({ ...options, limiter: rateTableLimiter });
