/** Loads the handlers Lambda runs as a cold start would, so a broken module fails at start-up, and feeds the queue workers. */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { HttpHandler } from '#shared/http/handler.ts';
import { QUEUES } from '#shared/resources.ts';
import { FALLBACK, ROUTE_LIST } from '#shared/routes.ts';
import type { LocalQueue } from '#infra/local/provision.ts';
import type { HttpHandlers } from '#infra/local/server.ts';
import { startPoller, type SqsWorker } from '#infra/local/sqs-poller.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

async function importHandler<T>(file: string): Promise<T> {
  const module = (await import(pathToFileURL(join(ROOT, file)).href)) as { handler?: T };
  if (typeof module.handler !== 'function') throw new Error(`${file} does not export a handler function`);
  return module.handler;
}

/** Every row's handler and the fallback's. */
export async function loadHttpHandlers(): Promise<HttpHandlers> {
  const routes = new Map<string, HttpHandler>();
  for (const row of ROUTE_LIST) routes.set(row.operationId, await importHandler<HttpHandler>(row.handler));
  return { routes, fallback: await importHandler<HttpHandler>(FALLBACK.handler) };
}

/** A queue's pollers (its worker's localConcurrency), each handing `onStop` its stop. */
export async function startWorkers(
  queues: readonly LocalQueue[],
  sqs: { client: SQSClient; region: string },
  onStop: (stop: () => Promise<void>) => void,
): Promise<void> {
  for (const queue of queues) {
    const def = QUEUES[queue.name];
    const worker = await importHandler<SqsWorker>(def.worker.handler);
    const pollers = ('localConcurrency' in def.worker ? def.worker.localConcurrency : undefined) ?? 1;
    for (let index = 0; index < pollers; index += 1) {
      const poller = startPoller({
        client: sqs.client,
        queueUrl: queue.url,
        queueArn: queue.arn,
        region: sqs.region,
        batchSize: def.worker.batchSize,
        timeoutSeconds: def.worker.timeout,
        functionName: `easel-${queue.name}-worker`,
        worker,
      });
      onStop(() => poller.stop());
    }
  }
}
