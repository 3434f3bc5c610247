/**
 * The per-client rate limit a row publishes in `x-easel-rate-limit`. No AWS client here, as route.ts
 * imports this; #shared/wiring/rate-limit.ts binds the rate table.
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

/** Published and enforced from the same value. */
export const RATE_LIMIT_EXTENSION = 'x-easel-rate-limit';

const Rule = v.strictObject({
  limit: v.pipe(v.number(), v.integer(), v.minValue(1)),
  windowSeconds: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/** A malformed rule fails the cold start. */
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
  /** Called on every request, so it may build the limiter on first use. */
  limiter: () => RateLimiter;
}

/** Counts per `sourceIp` as API Gateway saw it, never a client-controlled header; 429 once used up. */
export function perClientRateLimit({ operationId, rule, limiter }: PerClientRateLimitOptions): HttpMiddleware {
  return {
    before: async (request) => {
      const client = clientNetwork(request.event.requestContext.http.sourceIp);
      const now = Date.now();
      let decision;
      try {
        decision = await limiter().consume({ key: `${operationId}#ip#${client}`, ...rule, now });
      } catch (error) {
        // Count unknown: report nothing left and fail closed.
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
