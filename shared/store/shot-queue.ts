/** The shot queue: one message per shot of a run, for the shot worker. */
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { log, serializeError } from '#shared/log.ts';
import type { ShotMessage } from '#shared/schemas/shots.ts';

/** SQS takes at most ten messages a batch. */
const BATCH = 10;

export class ShotQueue {
  private readonly sqs: SQSClient;
  private readonly queueUrl: string;

  constructor(deps: { sqs: SQSClient; queueUrl: string }) {
    this.sqs = deps.sqs;
    this.queueUrl = deps.queueUrl;
  }

  /** Sends every message it can; returns those SQS did not take (a refused entry, or a whole batch that failed). */
  async enqueue(messages: readonly ShotMessage[]): Promise<ShotMessage[]> {
    const unsent: ShotMessage[] = [];
    for (let start = 0; start < messages.length; start += BATCH) {
      const batch = messages.slice(start, start + BATCH);
      try {
        const { Failed = [] } = await this.sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: this.queueUrl,
            Entries: batch.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) })),
          }),
        );
        for (const failure of Failed) unsent.push(batch[Number(failure.Id)]!);
      } catch (error) {
        log.warn('shot queue refused a batch', { error: serializeError(error) });
        unsent.push(...batch);
      }
    }
    return unsent;
  }
}
