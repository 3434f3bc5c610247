/**
 * The SQS event adapter: one call per record, in order, and each failing record reported on its
 * own for a retry, whether its body or its handling fails.
 */
import type { SQSEvent } from 'aws-lambda';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLogSink } from '#shared/log.ts';
import { batchHandler } from '#shared/sqs/batch.ts';

const Job = v.strictObject({ id: v.string() });
const event = (...bodies: string[]): SQSEvent => ({ Records: bodies.map((body, index) => ({ messageId: `m-${index + 1}`, body })) }) as unknown as SQSEvent;

let lines: Record<string, unknown>[];
let restore: ReturnType<typeof setLogSink>;
beforeEach(() => {
  lines = [];
  restore = setLogSink((line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  process.env.LOG_LEVEL = 'info';
});
afterEach(() => {
  setLogSink(restore);
  process.env.LOG_LEVEL = 'silent';
});

describe('batchHandler', () => {
  it('hands each checked body to the handler in order and reports no failure when all succeed', async () => {
    // Prepare
    const seen: unknown[] = [];
    const worker = batchHandler({ name: 'job', body: Job }, async (message) => {
      seen.push(message);
      return { outcome: 'done' };
    });

    // Act
    const result = await worker(event('{"id":"a"}', '{"id":"b"}'));

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    expect(seen).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', msg: 'job', messageId: 'm-1', outcome: 'done' }),
      expect.objectContaining({ level: 'info', msg: 'job', messageId: 'm-2', outcome: 'done' }),
    ]);
  });

  it.each([
    ['is not JSON', 'not json'],
    ['does not match the schema', '{"id":1}'],
  ])('reports a record whose body %s without handling it, and handles the rest', async (_, body) => {
    // Prepare
    const seen: unknown[] = [];
    const worker = batchHandler({ name: 'job', body: Job }, async (message) => {
      seen.push(message);
      return {};
    });

    // Act
    const result = await worker(event(body, '{"id":"b"}'));

    // Assess
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(seen).toEqual([{ id: 'b' }]);
  });

  it("tells the handler which delivery each record is and the invocation's time left", async () => {
    // Prepare
    const seen: unknown[] = [];
    const worker = batchHandler({ name: 'job', body: Job }, async (_message, delivery) => {
      seen.push(delivery);
      return {};
    });
    const records = event('{"id":"a"}', '{"id":"b"}');
    records.Records[1]!.attributes = { ApproximateReceiveCount: '3' } as never;

    // Act
    await worker(records, { getRemainingTimeInMillis: () => 4_000 });

    // Assess
    expect(seen).toEqual([
      { messageId: 'm-1', receiveCount: 1, remainingMs: 4_000 },
      { messageId: 'm-2', receiveCount: 3, remainingMs: 4_000 },
    ]);
  });

  it('reports a record whose handling fails, logs why, and handles the rest', async () => {
    // Prepare
    const worker = batchHandler({ name: 'job', body: Job }, async (message) => {
      if (message.id === 'a') throw new Error('storage refused');
      return {};
    });

    // Act
    const result = await worker(event('{"id":"a"}', '{"id":"b"}'));

    // Assess
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(lines[0]).toMatchObject({ level: 'error', msg: 'job failed', messageId: 'm-1', error: expect.objectContaining({ message: 'storage refused' }) });
  });
});
