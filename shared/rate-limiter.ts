/** Fixed-window rate limiting of any key: the caller names the key and rule, a CounterStore counts atomically. */
import type { CounterStore } from '#shared/store/rate-counters.ts';

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

export interface RateLimitInput extends RateLimitRule {
  /** What is counted, e.g. `capturePage#ip#203.0.113.7`; the window is appended by the limiter. */
  key: string;
  now?: number;
  /** Uses counted at once, all or none (default 1). */
  amount?: number;
  /** A window of its own (epoch ms), such as a calendar month, instead of fixed ones of `windowSeconds`. */
  window?: { start: number; end: number };
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch milliseconds when the window ends. */
  resetAt: number;
  /** At least 1: what Retry-After says when refused. */
  retryAfterSeconds: number;
  counter: string;
}

export interface RateLimiter {
  consume(input: RateLimitInput): Promise<RateLimitDecision>;
}

// Counters outlive their window a little, so a clock slightly behind DynamoDB's never meets a vanished counter.
const EXPIRY_GRACE_SECONDS = 60;

export function windowOf(now: number, windowSeconds: number): { start: number; end: number } {
  const length = windowSeconds * 1000;
  const start = Math.floor(now / length) * length;
  return { start, end: start + length };
}

export function createRateLimiter(store: CounterStore): RateLimiter {
  return {
    async consume({ key, limit, windowSeconds, now = Date.now(), amount = 1, window }) {
      if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(windowSeconds) || windowSeconds < 1) {
        throw new RangeError(`Invalid rate-limit rule: ${limit} per ${windowSeconds} s`);
      }
      if (!Number.isInteger(amount) || amount < 1) throw new RangeError(`Invalid amount to count: ${amount}`);
      const { start, end } = window ?? windowOf(now, windowSeconds);
      const counter = `${key}#${start}`;
      const count = await store.incrementBelow(counter, limit, Math.ceil(end / 1000) + EXPIRY_GRACE_SECONDS, amount);
      const retryAfterSeconds = Math.max(1, Math.ceil((end - now) / 1000));
      if (count === undefined) return { allowed: false, limit, remaining: 0, resetAt: end, retryAfterSeconds, counter };
      return { allowed: true, limit, remaining: Math.max(0, limit - count), resetAt: end, retryAfterSeconds, counter };
    },
  };
}

/** The X-RateLimit-* headers of a decision (Reset in epoch milliseconds, as the contract says). */
export function rateLimitHeaders(decision: Pick<RateLimitDecision, 'limit' | 'remaining' | 'resetAt'>): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  };
}
