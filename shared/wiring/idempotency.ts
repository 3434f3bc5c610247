/** The idempotency middleware over the container's DynamoDB client and the workspace table. */
import { config } from '#shared/config.ts';
import type { HttpMiddleware } from '#shared/http/middleware-types.ts';
import { idempotency as middleware, type IdempotencyOptions } from '#shared/http/idempotency.ts';
import { IdempotencyStore } from '#shared/store/idempotency.ts';
import { dynamo } from '#shared/wiring/dynamo.ts';

let store: IdempotencyStore | undefined;

export const idempotency = (options: Omit<IdempotencyOptions, 'store'>): HttpMiddleware =>
  middleware({ ...options, store: () => (store ??= new IdempotencyStore({ dynamo, table: config().tables.workspace })) });
