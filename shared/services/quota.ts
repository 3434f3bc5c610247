import { QuotaExceededError } from '#shared/errors.ts';
import { quotaLimit, quotaWindowSeconds, type Plan, type Quota } from '#shared/identity/plans.ts';
import { windowOf, type RateLimiter } from '#shared/rate-limiter.ts';

/** The calendar month (UTC) that `now` (epoch ms) falls in. */
function calendarMonth(now: number): { start: number; end: number } {
  const date = new Date(now);
  return { start: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1), end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) };
}

/** Counts `amount` uses (default 1) of a quota, all or none, exact under concurrency; 429 `workspace_quota_exceeded` counts nothing. */
export async function consumeQuota(
  limiter: RateLimiter,
  input: { workspaceId: string; plan: Plan; quota: Quota; now?: number; amount?: number },
): Promise<void> {
  const limit = quotaLimit(input.plan, input.quota);
  const now = input.now ?? Date.now();
  const fixed = quotaWindowSeconds(input.quota);
  const window = fixed === undefined ? calendarMonth(now) : windowOf(now, fixed);
  const decision = await limiter.consume({
    key: `quota#${input.quota}#${input.workspaceId}`,
    limit,
    windowSeconds: (window.end - window.start) / 1000,
    now,
    ...(input.amount === undefined ? {} : { amount: input.amount }),
    window,
  });
  if (!decision.allowed) throw new QuotaExceededError({ quota: input.quota, limit, retryAfter: decision.retryAfterSeconds, requested: input.amount });
}
