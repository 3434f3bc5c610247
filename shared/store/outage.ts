/** An outage of DynamoDB, S3 or SQS as 503 `upstream_unavailable`: stores run each SDK call through guard(). */
import { UpstreamUnavailableError } from '#shared/errors.ts';

/** Error names of throttling, time-outs and service-side trouble across DynamoDB, S3 and SQS. */
const TRANSIENT = new Set([
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
  'InternalServerError',
  'InternalError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
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

/** Translates an outage into 503 `upstream_unavailable`; every other error passes through. */
export async function guard<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isUnavailable(error)) throw new UpstreamUnavailableError(`${what} is temporarily unavailable; retry with back-off.`, error);
    throw error;
  }
}
