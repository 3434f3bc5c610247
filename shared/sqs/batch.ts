/** The SQS adapter, as shared/http/ is the HTTP one: a worker is a rule for one message. */
import * as v from 'valibot';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { log, serializeError } from '#shared/log.ts';

export interface BatchOptions<S extends v.GenericSchema> {
  name: string;
  body: S;
}

export interface RecordDelivery {
  messageId: string;
  /** 1 on the first delivery (SQS's ApproximateReceiveCount). */
  receiveCount: number;
  /** Milliseconds the invocation has left, when it runs on Lambda's clock. */
  remainingMs?: number;
}

/** Handles records in turn, each failure reported on its own (`batchItemFailures`): retried, then dead-lettered, holding back no other. */
export function batchHandler<S extends v.GenericSchema>(
  options: BatchOptions<S>,
  handle: (message: v.InferOutput<S>, delivery: RecordDelivery) => Promise<Record<string, unknown>>,
): (event: SQSEvent, context?: Pick<Context, 'getRemainingTimeInMillis'>) => Promise<SQSBatchResponse> {
  return async (event, context) => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        const message = v.parse(options.body, JSON.parse(record.body));
        const delivery: RecordDelivery = {
          messageId: record.messageId,
          receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? 1),
          ...(context ? { remainingMs: context.getRemainingTimeInMillis() } : {}),
        };
        log.info(options.name, { messageId: record.messageId, ...(await handle(message, delivery)) });
      } catch (error) {
        log.error(`${options.name} failed`, { messageId: record.messageId, error: serializeError(error) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}
