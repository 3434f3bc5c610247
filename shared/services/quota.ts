import { QuotaExceededError } from '#shared/errors.ts';
import { QUOTAS, quotaLimit, type Plan, type Quota } from '#shared/identity/plans.ts';
import type { RateLimiter } from '#shared/rate-limiter.ts';

/** Counts one use of a plan quota, exact under concurrency; 429 `workspace_quota_exceeded` once spent. */
export async function consumeQuota(limiter: RateLimiter, input: { workspaceId: string; plan: Plan; quota: Quota; now?: number }): Promise<void> {
  const limit = quotaLimit(input.plan, input.quota);
  const decision = await limiter.consume({
    key: `quota#${input.quota}#${input.workspaceId}`,
    limit,
    windowSeconds: QUOTAS[input.quota].windowSeconds,
    now: input.now,
  });
  if (!decision.allowed) throw new QuotaExceededError({ quota: input.quota, limit, retryAfter: decision.retryAfterSeconds });
}
