/** The SQS adapter, as shared/http/ is the HTTP one: a worker is a rule for one message. */
import * as v from 'valibot';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { log, serializeError } from '#shared/log.ts';

export interface BatchOptions<S extends v.GenericSchema> {
  /** For the log lines, e.g. 'asset deletion'. */
  name: string;
  body: S;
}

/**
 * Handles records one after another; each failing record is reported on its own (`batchItemFailures`),
 * so it is retried, then dead-lettered, without holding back the rest of the batch.
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
