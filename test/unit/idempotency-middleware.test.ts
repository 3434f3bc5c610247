import { describe, expect, it } from 'vitest';
import { DeadlineExceededError } from '#shared/errors.ts';
import { IDEMPOTENCY_TTL_SECONDS, idempotency } from '#shared/http/idempotency.ts';
import { setPrincipal } from '#shared/http/principals.ts';
import { replayOf } from '#shared/http/replay.ts';
import type { Principal } from '#shared/identity/principal.ts';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyRecord, IdempotencySlot, IdempotencyStore } from '#shared/store/idempotency.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { useLogLines } from '../support/log-lines.ts';

/** The store's contract in memory: a claim holds the slot until completed, released or past its expiry. */
function memoryStore(script: { complete?: () => Promise<boolean>; release?: () => Promise<void> } = {}) {
  const records = new Map<string, { record: IdempotencyRecord; owner: string; expiresAt: number }>();
  const id = (slot: IdempotencySlot) => `${slot.workspaceId}/${slot.operationId}/${slot.keyHash}`;
  const store = {
    records,
    claim: async (slot: IdempotencySlot, claim: IdempotencyClaim): Promise<ClaimOutcome> => {
      const held = records.get(id(slot));
      if (held && held.expiresAt >= claim.now) return { claimed: false, record: held.record };
      records.set(id(slot), { record: { state: 'pending', requestHash: claim.requestHash }, owner: claim.owner, expiresAt: claim.leaseEnds });
      return held?.record.state === 'pending' ? { claimed: true, tookOver: held.owner } : { claimed: true };
    },
    complete: async (slot: IdempotencySlot, owner: string, answer: { status: number; body: string; keepUntil: number }) => {
      if (script.complete) return script.complete();
      const held = records.get(id(slot));
      if (held?.record.state !== 'pending' || held.owner !== owner) return false;
      const { keepUntil, ...kept } = answer;
      records.set(id(slot), { record: { state: 'done', requestHash: held.record.requestHash, ...kept }, owner, expiresAt: keepUntil });
      return true;
    },
    release: async (slot: IdempotencySlot, owner: string) => {
      if (script.release) return script.release();
      if (records.get(id(slot))?.owner === owner) records.delete(id(slot));
    },
  };
  return store as typeof store & IdempotencyStore;
}

function request(body: unknown, key = 'k-1', remainingMs = 10_000) {
  const event = apiEvent({ method: 'POST', path: '/api/v1/source-apps', body, headers: { 'idempotency-key': key } });
  const context = lambdaContext({ getRemainingTimeInMillis: () => remainingMs });
  const req = { event, context, internal: {} as Record<string, unknown>, response: undefined as unknown, error: undefined as unknown };
  setPrincipal(req, { kind: 'apiKey', workspaceId: 'ws-1' } as unknown as Principal);
  return req;
}

const START = 1_700_000_000_000;

/** A clock that stands still until the test moves it. */
const handClock = () => {
  const clock = { now: START, read: () => clock.now };
  return clock;
};

/** The middleware over a memory store, on a clock that moves when the test moves it. */
function onHandClock(script: Parameters<typeof memoryStore>[0] = {}, status: number | undefined = 201) {
  const clock = handClock();
  const store = memoryStore(script);
  return { clock, store, middleware: idempotency({ operationId: 'createSourceApp', status, timeoutSeconds: 10, store: () => store, now: clock.read }) };
}

/** Makes every claim of `store` move `clock` a second on, as a slow repeat's attempts would. */
function eachClaimTakesASecond(store: ReturnType<typeof memoryStore>, clock: ReturnType<typeof handClock>): void {
  const claim = store.claim;
  store.claim = async (slot, attempt) => {
    clock.now += 1_000;
    return claim(slot, attempt);
  };
}

const captured = useLogLines();

/** The incidents counted so far, by kind. */
const incidents = () => captured.lines.filter((line) => line._aws !== undefined && 'IdempotencyIncidents' in line).map((line) => line.Incident);
const logged = (level: string) => captured.lines.filter((line) => line.level === level).map((line) => line.msg);

describe('idempotency middleware', () => {
  it('lets the first request run, keeps its answer, and replays it to a repeat', async () => {
    // Prepare
    const store = memoryStore();
    const middleware = idempotency({ operationId: 'createSourceApp', status: 201, timeoutSeconds: 10, store: () => store });
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
    const middleware = idempotency({ operationId: 'createSourceApp', timeoutSeconds: 10, store: () => store });
    const failing = request({ name: 'CI' });

    await middleware.before!(failing as never);
    await middleware.onError!(failing as never);

    expect(store.records.size).toBe(0);
  });

  it('waits for a running request with the same key and replays its answer', async () => {
    // Prepare: the first request holds the slot
    const store = memoryStore();
    const middleware = idempotency({ operationId: 'createSourceApp', status: 201, timeoutSeconds: 10, store: () => store, now: handClock().read });
    const holder = request({ name: 'CI' });
    await middleware.before!(holder as never);

    // Act: a repeat arrives, then the first request answers
    const repeat = request({ name: 'CI' });
    const waiting = middleware.before!(repeat as never);
    holder.response = { id: 'app-2' };
    await middleware.after!(holder as never);
    await waiting;

    // Assess
    expect(replayOf(repeat.context)).toMatchObject({ status: 201, body: { value: { id: 'app-2' } } });
  });

  it("answers 503 upstream_unavailable, the caller's and no fault of the service, when the running request outlasts the wait", async () => {
    // Prepare: each attempt of the repeat takes a second
    const clock = handClock();
    const store = memoryStore();
    eachClaimTakesASecond(store, clock);
    const middleware = idempotency({ operationId: 'createSourceApp', timeoutSeconds: 10, store: () => store, now: clock.read });
    await middleware.before!(request({ name: 'CI' }) as never);

    // Act
    const repeat = middleware.before!(request({ name: 'CI' }) as never);

    // Assess
    await expect(repeat).rejects.toMatchObject({ status: 503, code: 'upstream_unavailable', origin: 'caller' });
    expect(clock.now - START).toBeLessThan(10_000);
  });

  it("leases a claim for the invocation's remaining time and keeps a stored answer for 24 hours", async () => {
    // Prepare
    const { clock, store, middleware } = onHandClock();
    const first = request({ name: 'CI' }, 'k-1', 9_500);

    // Act
    await middleware.before!(first as never);
    const pending = [...store.records.values()][0]!.expiresAt;
    clock.now += 2_000;
    first.response = { id: 'app-1' };
    await middleware.after!(first as never);

    // Assess
    expect(pending).toBe(Math.ceil((START + 9_500) / 1000));
    expect([...store.records.values()][0]!.expiresAt).toBe(Math.floor((START + 2_000) / 1000) + IDEMPOTENCY_TTL_SECONDS);
    expect(IDEMPOTENCY_TTL_SECONDS).toBe(86_400);
  });

  it('lets a retry take over the claim of a request that ended without an answer once its lease is over, logged and counted', async () => {
    // Prepare: the first request claims and never finishes (its invocation crashed or timed out)
    const { clock, store, middleware } = onHandClock();
    const crashed = request({ name: 'CI' }, 'k-1', 10_000);
    await middleware.before!(crashed as never);

    // Act: the retry comes after the lease
    clock.now += 11_000;
    const retry = request({ name: 'CI' });
    await middleware.before!(retry as never);
    retry.response = { id: 'app-9' };
    await middleware.after!(retry as never);

    // Assess: the retry ran and stored its answer
    expect(replayOf(retry.context)).toBeUndefined();
    expect([...store.records.values()][0]).toMatchObject({ record: { state: 'done', body: '{"id":"app-9"}' }, owner: retry.event.requestContext.requestId });
    expect(incidents()).toEqual(['taken-over']);
    expect(logged('warn')).toEqual(['idempotency lease taken over: its first request ended without storing an answer']);
    expect(captured.lines.find((line) => line.level === 'warn')).toMatchObject({
      workspaceId: 'ws-1',
      operationId: 'createSourceApp',
      previousOwner: crashed.event.requestContext.requestId,
    });
  });

  it("answers with the work's result when its answer cannot be stored, logged and counted, and a repeat within the lease waits rather than running again", async () => {
    // Prepare: the store fails to save the answer
    const { clock, store, middleware } = onHandClock({ complete: () => Promise.reject(new Error('DynamoDB is down')) });
    const first = request({ name: 'CI' });
    await middleware.before!(first as never);
    first.response = { id: 'app-1' };

    // Act
    await middleware.after!(first as never);
    eachClaimTakesASecond(store, clock);
    const repeat = middleware.before!(request({ name: 'CI' }) as never);

    // Assess
    expect(first.response).toEqual({ id: 'app-1' });
    expect(incidents()).toEqual(['unsaved']);
    expect(captured.lines.find((line) => line.level === 'error')).toMatchObject({
      msg: 'idempotency answer not stored: a retry with this key after its lease runs the request again',
      error: { message: 'DynamoDB is down' },
    });
    await expect(repeat).rejects.toMatchObject({ status: 503, origin: 'caller' });
  });

  it('counts an answer whose claim was taken over meanwhile as unsaved', async () => {
    const { clock, middleware } = onHandClock();
    const slow = request({ name: 'CI' }, 'k-1', 10_000);
    await middleware.before!(slow as never);
    clock.now += 11_000;
    await middleware.before!(request({ name: 'CI' }) as never);

    slow.response = { id: 'app-1' };
    await middleware.after!(slow as never);

    expect(incidents()).toEqual(['taken-over', 'unsaved']);
    expect(captured.lines.find((line) => line.level === 'error')).toMatchObject({ reason: 'the claim was taken over' });
  });

  it("logs and counts a claim it could not free, which a retry takes over at its lease's end", async () => {
    // Prepare
    const { clock, middleware } = onHandClock({ release: () => Promise.reject(new Error('DynamoDB is down')) }, undefined);
    const failing = request({ name: 'CI' }, 'k-1', 10_000);
    await middleware.before!(failing as never);

    // Act
    await middleware.onError!(failing as never);
    clock.now += 11_000;
    const retry = request({ name: 'CI' });
    await middleware.before!(retry as never);

    // Assess
    expect(incidents()).toEqual(['unreleased', 'taken-over']);
    expect(replayOf(retry.context)).toBeUndefined();
  });

  it('keeps the claim of a request answered at its deadline, whose work may still land', async () => {
    const store = memoryStore();
    const middleware = idempotency({ operationId: 'createSourceApp', timeoutSeconds: 10, store: () => store });
    const late = request({ name: 'CI' });
    await middleware.before!(late as never);

    late.error = new DeadlineExceededError(503);
    await middleware.onError!(late as never);

    expect([...store.records.values()].map((held) => held.record.state)).toEqual(['pending']);
  });

  it('refuses the key with another body with 400', async () => {
    const store = memoryStore();
    const middleware = idempotency({ operationId: 'createSourceApp', timeoutSeconds: 10, store: () => store });
    await middleware.before!(request({ name: 'CI' }) as never);

    await expect(middleware.before!(request({ name: 'Other' }) as never)).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('treats the same JSON with its keys in another order as the same request', async () => {
    const store = memoryStore();
    const middleware = idempotency({ operationId: 'createSourceApp', status: 201, timeoutSeconds: 10, store: () => store });
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
    const middleware = idempotency({ operationId: 'createSourceApp', timeoutSeconds: 10, store: () => store });
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(() => JSON.stringify(JSON.parse(deep))).toThrow(RangeError);

    await middleware.before!(request(deep) as never);

    expect(store.records.size).toBe(1);
    await expect(middleware.before!(request(`[${deep}]`) as never)).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
  });
});
