import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import { clientNetwork } from '#shared/net/address.ts';
import { createRateLimiter, rateLimitHeaders, windowOf } from '#shared/rate-limiter.ts';
import type { CounterStore } from '#shared/store/rate-counters.ts';
import { dynamoCounterStore } from '#shared/store/rate-counters.ts';
import { mockDynamo, stubbedDynamo } from '../support/mock-dynamo.ts';

/** Counts in memory with the same contract as the DynamoDB store. */
function memoryStore(): CounterStore & { counters: Map<string, { hits: number; expiresAt: number }> } {
  const counters = new Map<string, { hits: number; expiresAt: number }>();
  return {
    counters,
    async incrementBelow(key, limit, expiresAt) {
      const hits = counters.get(key)?.hits ?? 0;
      if (hits >= limit) return undefined;
      counters.set(key, { hits: hits + 1, expiresAt });
      return hits + 1;
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
      UpdateExpression: 'ADD hits :one SET expiresAt = :expiresAt',
      ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
      ExpressionAttributeValues: { ':one': 1, ':limit': 20, ':expiresAt': 1_795_000_060 },
      ReturnValues: 'UPDATED_NEW',
    });
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
