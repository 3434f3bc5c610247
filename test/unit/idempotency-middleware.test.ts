import { describe, expect, it } from 'vitest';
import { idempotency } from '#shared/http/idempotency.ts';
import { setPrincipal } from '#shared/http/principals.ts';
import { replayOf } from '#shared/http/replay.ts';
import type { Principal } from '#shared/identity/principal.ts';
import type { IdempotencyRecord, IdempotencySlot, IdempotencyStore } from '#shared/store/idempotency.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';

/** The store's contract in memory: a claim holds the slot until completed or released. */
function memoryStore(script: { onRead?: (record: IdempotencyRecord | undefined) => IdempotencyRecord | undefined } = {}) {
  const records = new Map<string, IdempotencyRecord>();
  const id = (slot: IdempotencySlot) => `${slot.workspaceId}/${slot.operationId}/${slot.keyHash}`;
  const store = {
    records,
    claim: async (slot: IdempotencySlot, requestHash: string) => {
      const held = records.get(id(slot));
      if (held) return held;
      records.set(id(slot), { state: 'pending', requestHash });
      return undefined;
    },
    read: async (slot: IdempotencySlot) => (script.onRead ? script.onRead(records.get(id(slot))) : records.get(id(slot))),
    complete: async (slot: IdempotencySlot, answer: { status: number; body: string }) => {
      records.set(id(slot), { state: 'done', requestHash: records.get(id(slot))!.requestHash, ...answer });
    },
    release: async (slot: IdempotencySlot) => {
      records.delete(id(slot));
    },
  };
  return store as typeof store & IdempotencyStore;
}

function request(body: unknown, key = 'k-1') {
  const event = apiEvent({ method: 'POST', path: '/api/v1/source-apps', body, headers: { 'idempotency-key': key } });
  const req = { event, context: lambdaContext(), internal: {} as Record<string, unknown>, response: undefined as unknown, error: undefined as unknown };
  setPrincipal(req, { kind: 'apiKey', workspaceId: 'ws-1' } as unknown as Principal);
  return req;
}

/** A clock that moves `step` ms at every reading, so waits end by the clock, not by real time. */
const steppingClock = (step: number) => {
  let now = 1_700_000_000_000;
  return () => (now += step);
};

describe('idempotency middleware', () => {
  it('lets the first request run, keeps its answer, and replays it to a repeat', async () => {
    // Prepare
    const store = memoryStore();
    const middleware = idempotency({ operationId: 'createSourceApp', status: 201, store: () => store });
    const first = request({ name: 'CI' });

    // Act
    await middleware.before!(first as never);
    first.response = { id: 'app-1' };
    await middleware.after!(first as never);
    const repeat = request({ name: 'CI' });
    await middleware.before!(repeat as never);

    // Assess
    expect(replayOf(first.context)).toBeUndefined();
    expect(replayOf(repeat.context)).toMatchObject({ status: 201, headers: { 'Idempotent-Replayed': 'true' }, body: { kind: 'json', value: { id: 'app-1' } } });
  });

  it('frees the claim of a request that fails, so a retry runs', async () => {
    const store = memoryStore();
    const middleware = idempotency({ operationId: 'createSourceApp', store: () => store });
    const failing = request({ name: 'CI' });

    await middleware.before!(failing as never);
    await middleware.onError!(failing as never);

    expect(store.records.size).toBe(0);
  });

  it('waits for a running request with the same key and replays its answer', async () => {
    // Prepare: the slot is pending, and done at the second reading
    let reads = 0;
    const store = memoryStore({
      onRead: (record) => (++reads < 2 || !record ? record : { state: 'done', requestHash: record.requestHash, status: 201, body: '{"id":"app-2"}' }),
    });
    const middleware = idempotency({ operationId: 'createSourceApp', status: 201, store: () => store, now: steppingClock(1) });
    const holder = request({ name: 'CI' });
    await middleware.before!(holder as never);

    // Act
    const repeat = request({ name: 'CI' });
    await middleware.before!(repeat as never);

    // Assess
    expect(replayOf(repeat.context)).toMatchObject({ status: 201, body: { value: { id: 'app-2' } } });
  });

  it('answers 503 when the running request outlasts the wait', async () => {
    const store = memoryStore();
    const middleware = idempotency({ operationId: 'createSourceApp', store: () => store, now: steppingClock(20_000) });
    await middleware.before!(request({ name: 'CI' }) as never);

    await expect(middleware.before!(request({ name: 'CI' }) as never)).rejects.toMatchObject({ status: 503, code: 'upstream_unavailable' });
  });

  it('refuses the key with another body with 400', async () => {
    const store = memoryStore();
    const middleware = idempotency({ operationId: 'createSourceApp', store: () => store });
    await middleware.before!(request({ name: 'CI' }) as never);

    await expect(middleware.before!(request({ name: 'Other' }) as never)).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('treats the same JSON with its keys in another order as the same request', async () => {
    const store = memoryStore();
    const middleware = idempotency({ operationId: 'createSourceApp', status: 201, store: () => store });
    const first = request({ name: 'CI', allowedHosts: ['https://a.example'] });
    await middleware.before!(first as never);
    first.response = { id: 'app-3' };
    await middleware.after!(first as never);

    const reordered = request({ allowedHosts: ['https://a.example'], name: 'CI' });
    await middleware.before!(reordered as never);

    expect(replayOf(reordered.context)).toBeDefined();
  });

  it('claims a body of JSON nested deeper than the stack can walk, and tells another body under the same key apart (found by the fuzzer)', async () => {
    const store = memoryStore();
    const middleware = idempotency({ operationId: 'createSourceApp', store: () => store });
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(() => JSON.stringify(JSON.parse(deep))).toThrow(RangeError);

    await middleware.before!(request(deep) as never);

    expect(store.records.size).toBe(1);
    await expect(middleware.before!(request(`[${deep}]`) as never)).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
  });
});
