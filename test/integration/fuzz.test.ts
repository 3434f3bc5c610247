/**
 * Property: whatever a client sends to any row of the route table (or to no row), the answer is
 * the row's documented success or the error envelope with a 4xx status and a contract code; never
 * a 5xx, never later than the route's time-out; and the server keeps answering. Upstreams are
 * local stand-ins, so every request that passes validation does its real work. A longer run:
 * `npm run fuzz`. A failure prints fast-check's seed and path; FUZZ_SEED replays it.
 */
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshClient } from '../support/client.ts';
import { requestArbitrary, send, Tally, timeLimitMs, violation } from '../support/fuzz.ts';
import { startFuzzEnvironment, type FuzzEnvironment } from '../support/fuzz-environment.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

let environment: FuzzEnvironment;

beforeAll(async () => {
  environment = await startFuzzEnvironment();
});

afterAll(async () => {
  await environment?.stop();
});

describe('hostile requests to every row of the route table', () => {
  it(`answer with a documented success or a 4xx envelope, within the route time-out, and never take the server down (${RUNS} requests)`, async () => {
    // Prepare
    const tally = new Tally();

    // Act + Assess: each generated request, from its own address so the capture limit does not hide the rest
    await fc.assert(
      fc.asyncProperty(requestArbitrary(environment.context), async (request) => {
        const limit = timeLimitMs(request);
        const answer = await send(environment.baseUrl, request, { timeoutMs: limit + 2_000, localAddress: freshClient() });
        tally.add(answer, request.method);
        expect(violation(request, answer)).toBeUndefined();
        expect(answer.ms).toBeLessThan(limit);
      }),
      { numRuns: RUNS, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
    );

    // Assess: still serving, and the run reached both successes and refusals
    const after = await fetch(`${environment.baseUrl}/llms.txt`);
    expect(after.status).toBe(200);
    const statuses = [...tally.counts.keys()];
    expect(statuses.some((key) => key.startsWith('2'))).toBe(true);
    expect(statuses.some((key) => key.startsWith('4'))).toBe(true);
  }, 300_000);
});
