import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { QuotaExceededError, UpstreamUnavailableError } from '#shared/errors.ts';
import { clientNetwork } from '#shared/net/address.ts';
import { createRateLimiter, rateLimitHeaders, windowOf } from '#shared/rate-limiter.ts';
import { consumeQuota } from '#shared/services/quota.ts';
import type { CounterStore } from '#shared/store/rate-counters.ts';
import { dynamoCounterStore } from '#shared/store/rate-counters.ts';
import { mockDynamo, stubbedDynamo } from '../support/mock-dynamo.ts';

/** Counts in memory with the same contract as the DynamoDB store. */
function memoryStore(): CounterStore & { counters: Map<string, { hits: number; expiresAt: number }> } {
  const counters = new Map<string, { hits: number; expiresAt: number }>();
  return {
    counters,
    async incrementBelow(key, limit, expiresAt, amount = 1) {
      const hits = counters.get(key)?.hits ?? 0;
      if (hits + amount > limit) return undefined;
      counters.set(key, { hits: hits + amount, expiresAt });
      return hits + amount;
    },
  };
}

const rule = { key: 'capturePage#ip#203.0.113.7', limit: 3, windowSeconds: 60 };
// 12:00:10 into a minute window that started at 12:00:00.
const NOW = Date.UTC(2026, 10, 22, 12, 0, 10);

describe('createRateLimiter', () => {
  it('allows up to the limit in a window, counting the remaining allowance down', async () => {
    // Prepare
    const limiter = createRateLimiter(memoryStore());

    // Act
    const decisions = [];
    for (let i = 0; i < 3; i += 1) decisions.push(await limiter.consume({ ...rule, now: NOW }));

    // Assess
    expect(decisions.map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
  });

  it('refuses once the limit is reached, saying when the window resets and how long to wait', async () => {
    // Prepare
    const limiter = createRateLimiter(memoryStore());
    for (let i = 0; i < 3; i += 1) await limiter.consume({ ...rule, now: NOW });

    // Act
    const refused = await limiter.consume({ ...rule, now: NOW });

    // Assess
    expect(refused).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetAt: Date.UTC(2026, 10, 22, 12, 1, 0),
      retryAfterSeconds: 50,
      counter: `${rule.key}#${Date.UTC(2026, 10, 22, 12, 0, 0)}`,
    });
  });

  it('starts counting again in the next window', async () => {
    // Prepare
    const limiter = createRateLimiter(memoryStore());
    for (let i = 0; i < 4; i += 1) await limiter.consume({ ...rule, now: NOW });

    // Act
    const next = await limiter.consume({ ...rule, now: NOW + 50_000 });

    // Assess
    expect(next).toMatchObject({ allowed: true, remaining: 2, resetAt: Date.UTC(2026, 10, 22, 12, 2, 0) });
  });

  it('counts each key apart', async () => {
    // Prepare
    const limiter = createRateLimiter(memoryStore());
    for (let i = 0; i < 3; i += 1) await limiter.consume({ ...rule, now: NOW });

    // Act
    const other = await limiter.consume({ ...rule, key: 'capturePage#ip#198.51.100.1', now: NOW });

    // Assess
    expect(other.allowed).toBe(true);
  });

  it('lets counters expire a minute after their window, for DynamoDB TTL', async () => {
    // Prepare
    const store = memoryStore();

    // Act
    await createRateLimiter(store).consume({ ...rule, now: NOW });

    // Assess
    expect([...store.counters.values()][0]!.expiresAt).toBe(Date.UTC(2026, 10, 22, 12, 1, 0) / 1000 + 60);
  });

  it('never says to wait less than a second', async () => {
    // Prepare: 10 ms before the window ends
    const limiter = createRateLimiter(memoryStore());
    const late = Date.UTC(2026, 10, 22, 12, 0, 59, 990);
    for (let i = 0; i < 3; i += 1) await limiter.consume({ ...rule, now: late });

    // Act + Assess
    expect((await limiter.consume({ ...rule, now: late })).retryAfterSeconds).toBe(1);
  });

  it.each([[{ limit: 0, windowSeconds: 60 }], [{ limit: 1.5, windowSeconds: 60 }], [{ limit: 20, windowSeconds: 0 }]])(
    'refuses the nonsensical rule %j',
    async (bad) => {
      await expect(createRateLimiter(memoryStore()).consume({ key: 'k', ...bad, now: NOW })).rejects.toBeInstanceOf(RangeError);
    },
  );
});

describe('consumeQuota', () => {
  const input = { workspaceId: 'ws_1', plan: 'free', quota: 'shots:month', now: NOW } as const;

  it('counts all of a run at once in the calendar month (UTC), under a key of the workspace and month', async () => {
    // Prepare
    const store = memoryStore();

    // Act
    await consumeQuota(createRateLimiter(store), { ...input, amount: 60 });

    // Assess: free's 100 shots a month
    expect([...store.counters.entries()]).toEqual([
      [`quota#shots:month#ws_1#${Date.UTC(2026, 10, 1)}`, { hits: 60, expiresAt: Date.UTC(2026, 11, 1) / 1000 + 60 }],
    ]);
  });

  it("refuses a run that would pass the plan's limit with 429 until the month's end, counting none of it, and takes a smaller one", async () => {
    // Prepare
    const store = memoryStore();
    const limiter = createRateLimiter(store);
    await consumeQuota(limiter, { ...input, amount: 60 });

    // Act
    const refused = await consumeQuota(limiter, { ...input, amount: 41 }).catch((error: unknown) => error);
    await consumeQuota(limiter, { ...input, amount: 40 });

    // Assess
    expect(refused).toBeInstanceOf(QuotaExceededError);
    expect(refused).toMatchObject({
      status: 429,
      code: 'workspace_quota_exceeded',
      extra: { limit: 100, quota: 'shots:month' },
      headers: { 'Retry-After': String((Date.UTC(2026, 11, 1) - NOW) / 1000) },
    });
    expect([...store.counters.values()][0]!.hits).toBe(100);
  });

  it('keeps counting a per-minute quota in windows of its length', async () => {
    // Prepare
    const store = memoryStore();

    // Act
    await consumeQuota(createRateLimiter(store), { workspaceId: 'ws_1', plan: 'pro', quota: 'api:write:minute', now: NOW });

    // Assess
    expect([...store.counters.keys()]).toEqual([`quota#api:write:minute#ws_1#${Date.UTC(2026, 10, 22, 12, 0, 0)}`]);
  });
});

describe('windowOf and rateLimitHeaders', () => {
  it('aligns windows on multiples of their length', () => {
    expect(windowOf(NOW, 60)).toEqual({ start: Date.UTC(2026, 10, 22, 12, 0, 0), end: Date.UTC(2026, 10, 22, 12, 1, 0) });
  });

  it('states the reset in epoch milliseconds', () => {
    expect(rateLimitHeaders({ limit: 20, remaining: 7, resetAt: 1_795_000_000_000 })).toEqual({
      'X-RateLimit-Limit': '20',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': '1795000000000',
    });
  });
});

describe('dynamoCounterStore', () => {
  const dynamo = mockDynamo();
  const store = dynamoCounterStore(stubbedDynamo(), 'easel-rate');

  afterEach(() => dynamo.reset());

  it('adds one atomically, only while the counter is below the limit, and sets the expiry', async () => {
    // Prepare
    dynamo.on(UpdateCommand).resolves({ Attributes: { hits: 4 } });

    // Act
    const count = await store.incrementBelow('k#0', 20, 1_795_000_060);

    // Assess
    expect(count).toBe(4);
    expect(dynamo.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: 'easel-rate',
      Key: { pk: 'k#0' },
      UpdateExpression: 'ADD hits :amount SET expiresAt = :expiresAt',
      ConditionExpression: 'attribute_not_exists(hits) OR hits <= :most',
      ExpressionAttributeValues: { ':amount': 1, ':most': 19, ':expiresAt': 1_795_000_060 },
      ReturnValues: 'UPDATED_NEW',
    });
  });

  it('adds several at once only while all of them fit under the limit', async () => {
    // Prepare
    dynamo.on(UpdateCommand).resolves({ Attributes: { hits: 20 } });

    // Act
    const count = await store.incrementBelow('k#0', 20, 1, 6);

    // Assess
    expect(count).toBe(20);
    expect(dynamo.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      UpdateExpression: 'ADD hits :amount SET expiresAt = :expiresAt',
      ConditionExpression: 'attribute_not_exists(hits) OR hits <= :most',
      ExpressionAttributeValues: { ':amount': 6, ':most': 14 },
    });
  });

  it('refuses more than the limit at once without asking DynamoDB', async () => {
    // Act + Assess
    expect(await store.incrementBelow('k#0', 20, 1, 21)).toBeUndefined();
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('answers undefined when the condition fails (the limit is reached)', async () => {
    // Prepare
    dynamo.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));

    // Act + Assess
    expect(await store.incrementBelow('k#0', 20, 1)).toBeUndefined();
  });

  it('turns throttling into 503 upstream_unavailable', async () => {
    // Prepare
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    dynamo.on(UpdateCommand).rejects(throttled);

    // Act + Assess
    await expect(store.incrementBelow('k#0', 20, 1)).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});

describe('clientNetwork', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
    ['[2001:db8:abcd:12::1]', '2001:db8:abcd:12::/64'],
  ])('counts %s as %s', (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });
});
