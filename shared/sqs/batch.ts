/**
 * The SQS event adapter, as shared/http/ is the HTTP one: a queue worker is a rule for one
 * message, and this turns an SQSEvent into one call per record and a partial batch response.
 */
import * as v from 'valibot';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { log, serializeError } from '#shared/log.ts';

export interface BatchOptions<S extends v.GenericSchema> {
  /** What the log lines call the work on one message, e.g. 'asset deletion'. */
  name: string;
  /** A message body's shape, checked after JSON.parse. */
  body: S;
}

/**
 * A queue worker: hands each record's body, parsed and checked, to `handle` (one record after
 * another) and logs the fields it returns. Each record that fails, in its body or its handling, is
 * reported on its own (`batchItemFailures`), so it is retried — and after maxReceiveCount lands
 * in the dead-letter queue — without holding back the rest of the batch.
 */
export function batchHandler<S extends v.GenericSchema>(
  options: BatchOptions<S>,
  handle: (message: v.InferOutput<S>) => Promise<Record<string, unknown>>,
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        const message = v.parse(options.body, JSON.parse(record.body));
        log.info(options.name, { messageId: record.messageId, ...(await handle(message)) });
      } catch (error) {
        log.error(`${options.name} failed`, { messageId: record.messageId, error: serializeError(error) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}
