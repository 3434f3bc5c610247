import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { UpstreamUnavailableError } from '#shared/errors.ts';

/** Error names of throttling, time-outs and service-side trouble across DynamoDB, S3 and SQS. */
const TRANSIENT = new Set([
  // Throttling
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'ThrottledException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'KmsThrottled',
  'OverLimit',
  // The service's own trouble
  'InternalServerError',
  'InternalError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  // Time-outs: the SDK's (connection, request, socket), the service's, and an aborted attempt
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'AbortError',
]);
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** HTTP statuses of a service that is failing or overloaded (501 Not Implemented is not among them). */
const UNAVAILABLE_STATUSES = new Set([500, 502, 503, 504]);

interface SdkErrorShape {
  code?: string;
  $fault?: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: { throttling?: boolean };
}

/** True for failures that mean "the dependency is down or overloaded", not "the request is wrong". */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, $fault, $metadata, $retryable } = error as SdkErrorShape;
  const status = $metadata?.httpStatusCode;
  return (
    TRANSIENT.has(error.name) ||
    (code !== undefined && NETWORK.has(code)) ||
    $fault === 'server' ||
    $retryable?.throttling === true ||
    status === 429 ||
    (status !== undefined && UNAVAILABLE_STATUSES.has(status)) ||
    // Node reports a refused connection to every address of a name as one AggregateError.
    error.name === 'AggregateError'
  );
}

/**
 * Runs a data-access call and translates an outage into 503 `upstream_unavailable`;
 * every other error passes through untouched for the caller (or the envelope) to handle.
 */
export async function guard<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isUnavailable(error)) throw new UpstreamUnavailableError(`${what} is temporarily unavailable; retry with back-off.`, error);
    throw error;
  }
}

/**
 * Writes `item` unless its key is taken (or `condition` fails): true when written, false when the
 * condition failed. Outages become 503 through guard().
 *
 * @param condition replaces `attribute_not_exists(pk)`, e.g. to let an expired item be overwritten
 */
export async function putIfAbsent(
  what: string,
  dynamo: DynamoDBDocumentClient,
  put: { table: string; item: Record<string, unknown>; condition?: string; values?: Record<string, unknown> },
): Promise<boolean> {
  try {
    await guard(what, () =>
      dynamo.send(
        new PutCommand({
          TableName: put.table,
          Item: put.item,
          ConditionExpression: put.condition ?? 'attribute_not_exists(pk)',
          ...(put.values ? { ExpressionAttributeValues: put.values } : {}),
        }),
      ),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Reads one item with a strongly consistent read, so a write that just won a race is seen. */
export async function getConsistent(
  what: string,
  dynamo: DynamoDBDocumentClient,
  table: string,
  key: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  const { Item } = await guard(what, () => dynamo.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true })));
  return Item;
}

/**
 * The conditional put, then consistent get, of idempotent creation: writes `item` if its key is
 * free; otherwise reads what holds the key (undefined when it vanished in between, e.g. by TTL).
 */
export async function putOrGet(
  what: string,
  dynamo: DynamoDBDocumentClient,
  put: { table: string; item: Record<string, unknown>; key: Record<string, unknown>; condition?: string; values?: Record<string, unknown> },
): Promise<{ created: true } | { created: false; existing: Record<string, unknown> | undefined }> {
  if (await putIfAbsent(what, dynamo, put)) return { created: true };
  return { created: false, existing: await getConsistent(what, dynamo, put.table, put.key) };
}

/**
 * A conditional update: the item's new attributes when `condition` held (all of them with
 * `ReturnValues: 'ALL_NEW'`, else an empty object), undefined when it failed. Outages become 503
 * through guard().
 */
export async function updateIf(
  what: string,
  dynamo: DynamoDBDocumentClient,
  update: UpdateCommandInput & { ConditionExpression: string },
): Promise<Record<string, unknown> | undefined> {
  try {
    const { Attributes } = await guard(what, () => dynamo.send(new UpdateCommand(update)));
    return Attributes ?? {};
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}
