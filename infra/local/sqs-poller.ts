/**
 * Stands in for Lambda's SQS event source mapping, deleting only records not in
 * `batchItemFailures`. Dead-lettering is the queue's redrive policy, not the poller's.
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { log, serializeError } from '#shared/log.ts';
import { toContext } from '#infra/local/apigw.ts';

export type SqsWorker = (event: SQSEvent, context: ReturnType<typeof toContext>) => Promise<SQSBatchResponse | undefined>;

export interface PollerOptions {
  client: SQSClient;
  queueUrl: string;
  queueArn: string;
  region: string;
  batchSize: number;
  timeoutSeconds: number;
  functionName: string;
  worker: SqsWorker;
}

function toRecord(message: Message, options: PollerOptions): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: options.queueArn,
    awsRegion: options.region,
  };
}

/** Returns how many messages it received. */
export async function pollOnce(options: PollerOptions, signal?: AbortSignal): Promise<number> {
  const { Messages = [] } = await options.client.send(
    new ReceiveMessageCommand({
      QueueUrl: options.queueUrl,
      MaxNumberOfMessages: options.batchSize,
      // A long poll for many messages waits out its full time on the local server.
      WaitTimeSeconds: 1,
      MessageSystemAttributeNames: ['All'],
    }),
    { abortSignal: signal },
  );
  if (Messages.length === 0) return 0;
  const records = Messages.map((message) => toRecord(message, options));
  let failed: Set<string>;
  try {
    const result = await options.worker({ Records: records }, toContext(options.functionName, options.timeoutSeconds));
    failed = new Set((result?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
  } catch (error) {
    // A thrown handler fails the whole batch, as on Lambda.
    log.error('worker invocation failed', { function: options.functionName, error: serializeError(error) });
    failed = new Set(records.map((record) => record.messageId));
  }
  const done = records.filter((record) => !failed.has(record.messageId));
  if (done.length > 0) {
    await options.client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: options.queueUrl,
        Entries: done.map((record, index) => ({ Id: String(index), ReceiptHandle: record.receiptHandle })),
      }),
    );
  }
  return Messages.length;
}

/** Polls until stopped; stop() resolves once the current batch has finished. */
export function startPoller(options: PollerOptions): { stop(): Promise<void> } {
  const controller = new AbortController();
  const loop = (async () => {
    while (!controller.signal.aborted) {
      try {
        await pollOnce(options, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) break;
        log.warn('queue poll failed', { queue: options.queueUrl, error: serializeError(error) });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  })();
  return {
    stop: async () => {
      controller.abort();
      await loop;
    },
  };
}
