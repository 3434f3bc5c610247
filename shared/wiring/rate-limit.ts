/**
 * The per-client rate limit counted in the rate table, and the factory of the handlers whose rows
 * publish `x-easel-rate-limit` (rateLimitedRoute), which passes it to route().
 */
import { dynamo } from '#shared/wiring/dynamo.ts';
import { config } from '#shared/config.ts';
import { perClientRateLimit } from '#shared/http/rate-limit.ts';
import { createRateLimiter } from '#shared/rate-limiter.ts';
import type { RateLimiter, RateLimitRule } from '#shared/rate-limiter.ts';
import { dynamoCounterStore } from '#shared/store/rate-counters.ts';
import type { HttpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/http/route.ts';
import type { RouteFn } from '#shared/http/route.ts';
import type { RouteRow } from '#shared/route-types.ts';

let limiter: RateLimiter | undefined;
/** The container's one limiter on the rate table: per-client rates and per-workspace quotas. */
export const rateTableLimiter = (): RateLimiter => (limiter ??= createRateLimiter(dynamoCounterStore(dynamo, config().tables.rate)));

/** Per-client limiting of `rule`, counted atomically in the rate table. */
export const rateTableLimit = (operationId: string, rule: RateLimitRule) => perClientRateLimit(operationId, rule, rateTableLimiter);

/** The handler of a row that publishes `x-easel-rate-limit`, counted in the rate table. */
export const rateLimitedRoute = <R extends RouteRow & { extensions: { 'x-easel-rate-limit': object } }>(row: R, fn: RouteFn<R>): HttpHandler =>
  route(row, fn, { rateLimit: rateTableLimit });
