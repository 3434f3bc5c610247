/** The per-client rate limit a row publishes in `x-easel-rate-limit`; no AWS client, as route.ts imports this (wiring/rate-limit.ts binds it). */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { RateLimitedError } from '#shared/errors.ts';
import { setResponseHeaders } from '#shared/http/handler.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import type { LambdaEvent, RouteRow } from '#shared/route-types.ts';
import { log } from '#shared/log.ts';
import { clientNetwork } from '#shared/net/address.ts';
import { rateLimitHeaders, windowOf } from '#shared/rate-limiter.ts';
import type { RateLimiter, RateLimitRule } from '#shared/rate-limiter.ts';

/** Published and enforced from the same value. */
export const RATE_LIMIT_EXTENSION = 'x-easel-rate-limit';

const Rule = v.strictObject({
  limit: v.pipe(v.number(), v.integer(), v.minValue(1)),
  windowSeconds: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** A path parameter to count per (a webhook's source app), instead of the client's address. */
  per: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9]*$/))),
});

export type RouteRateLimitRule = RateLimitRule & { per?: string };

/** A malformed rule, or one per a parameter its path lacks, fails the cold start. */
export function rateLimitRuleOf({ operationId, path, extensions }: Pick<RouteRow, 'operationId' | 'path' | 'extensions'>): RouteRateLimitRule | undefined {
  const value = extensions?.[RATE_LIMIT_EXTENSION];
  if (value === undefined) return undefined;
  const parsed = v.safeParse(Rule, value);
  if (!parsed.success)
    throw new Error(`Route ${operationId}: ${RATE_LIMIT_EXTENSION} must be { limit, windowSeconds } positive integers, and per a path parameter`);
  const { per } = parsed.output;
  if (per !== undefined && !path.includes(`{${per}}`))
    throw new Error(`Route ${operationId}: ${RATE_LIMIT_EXTENSION} counts per ${per}, which its path does not name`);
  return parsed.output;
}

export interface PerClientRateLimitOptions {
  operationId: string;
  rule: RouteRateLimitRule;
  /** Called on every request, so it may build the limiter on first use. */
  limiter: () => RateLimiter;
}

/** Longer path values are counted by their hash, so a counter's key stays short. */
const MAX_KEY_VALUE = 64;

function counted(request: { event: LambdaEvent }, operationId: string, per: string | undefined): string {
  if (per === undefined) return `${operationId}#ip#${clientNetwork(request.event.requestContext.http.sourceIp)}`;
  const value = request.event.pathParameters?.[per] ?? '';
  return `${operationId}#${per}#${value.length > MAX_KEY_VALUE ? createHash('sha256').update(value).digest('hex') : value}`;
}

/** Counts per `sourceIp` as API Gateway saw it (never a client's header), or per the rule's path parameter; 429 once used up. */
export function perClientRateLimit({ operationId, rule, limiter }: PerClientRateLimitOptions): HttpMiddleware {
  const { per, ...counting } = rule;
  return {
    before: async (request) => {
      const now = Date.now();
      let decision;
      try {
        decision = await limiter().consume({ key: counted(request, operationId, per), ...counting, now });
      } catch (error) {
        // Count unknown: report nothing left and fail closed.
        setResponseHeaders(request, rateLimitHeaders({ limit: rule.limit, remaining: 0, resetAt: windowOf(now, rule.windowSeconds).end }));
        throw error;
      }
      const headers = rateLimitHeaders(decision);
      setResponseHeaders(request, headers);
      if (!decision.allowed) {
        log.info('rate limited', { operationId, counter: decision.counter });
        throw new RateLimitedError({
          limit: rule.limit,
          windowSeconds: rule.windowSeconds,
          retryAfter: decision.retryAfterSeconds,
          headers,
          ...(per ? { per } : {}),
        });
      }
    },
  };
}
