import { UpstreamUnavailableError } from '#shared/http/errors.ts';

const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'SlowDown',
  'TimeoutError',
  'RequestTimeout',
]);
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** True for failures that mean "the dependency is down or overloaded", not "the request is wrong". */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  const fault = (error as { $fault?: string }).$fault;
  return TRANSIENT.has(error.name) || (code !== undefined && NETWORK.has(code)) || fault === 'server' || error.name === 'AggregateError';
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
