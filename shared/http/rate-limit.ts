/**
 * The per-client rate limit of a row that publishes `x-easel-rate-limit`, enforced first so every
 * request counts and every response (errors included) carries the X-RateLimit-* headers. No AWS
 * client here (route.ts reads rules with it): #shared/wiring/rate-limit.ts binds the rate table.
 */
import * as v from 'valibot';
import { RateLimitedError } from '#shared/errors.ts';
import { setResponseHeaders } from '#shared/http/handler.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import type { RouteRow } from '#shared/route-types.ts';
import { log } from '#shared/log.ts';
import { clientNetwork } from '#shared/net/address.ts';
import { rateLimitHeaders, windowOf } from '#shared/rate-limiter.ts';
import type { RateLimiter, RateLimitRule } from '#shared/rate-limiter.ts';

/** The vendor extension that publishes a route's limit; the same value is what gets enforced. */
export const RATE_LIMIT_EXTENSION = 'x-easel-rate-limit';

const Rule = v.strictObject({
  limit: v.pipe(v.number(), v.integer(), v.minValue(1)),
  windowSeconds: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/** The rule a row publishes in `x-easel-rate-limit`, if any; a malformed one fails the cold start. */
export function rateLimitRuleOf({ operationId, extensions }: Pick<RouteRow, 'operationId' | 'extensions'>): RateLimitRule | undefined {
  const value = extensions?.[RATE_LIMIT_EXTENSION];
  if (value === undefined) return undefined;
  const parsed = v.safeParse(Rule, value);
  if (!parsed.success) throw new Error(`Route ${operationId}: ${RATE_LIMIT_EXTENSION} must be { limit, windowSeconds } positive integers`);
  return parsed.output;
}

export interface PerClientRateLimitOptions {
  operationId: string;
  rule: RateLimitRule;
  /** The limiter to count with; called on every request, so it may be built on first use. */
  limiter: () => RateLimiter;
}

/**
 * Counts the request against `rule` for the caller's address as API Gateway saw it
 * (`requestContext.http.sourceIp`, never a header the client controls) and refuses it with 429
 * once the window's allowance is used up.
 */
export function perClientRateLimit({ operationId, rule, limiter }: PerClientRateLimitOptions): HttpMiddleware {
  return {
    before: async (request) => {
      const client = clientNetwork(request.event.requestContext.http.sourceIp);
      const now = Date.now();
      let decision;
      try {
        decision = await limiter().consume({ key: `${operationId}#ip#${client}`, ...rule, now });
      } catch (error) {
        // The count is unknown: say so conservatively (nothing left until the window ends) and fail closed.
        setResponseHeaders(request, rateLimitHeaders({ limit: rule.limit, remaining: 0, resetAt: windowOf(now, rule.windowSeconds).end }));
        throw error;
      }
      const headers = rateLimitHeaders(decision);
      setResponseHeaders(request, headers);
      if (!decision.allowed) {
        log.info('rate limited', { operationId, counter: decision.counter });
        throw new RateLimitedError({ limit: rule.limit, windowSeconds: rule.windowSeconds, retryAfter: decision.retryAfterSeconds, headers });
      }
    },
  };
}
