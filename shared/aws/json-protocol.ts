/**
 * A client of an AWS service that speaks the JSON protocol (POST /, `X-Amz-Target`, a JSON body
 * each way), on Node's own http(s) with keep-alive: what DynamoDB needs, in a few KB rather than
 * the SDK's ≈250 KB, whose compilation and first-call set-up cost every cold start ≈80 ms
 * (README, Performance).
 *
 * It behaves as the SDK clients configured in wiring/sdk-limits.ts do: a time limit to connect,
 * to receive the response headers and between body chunks; up to `maxAttempts` attempts for
 * throttling, 5xx, time-outs and network errors, with the SDK's full-jitter back-off (base 100 ms,
 * 500 ms when throttled); errors carry the SDK's shape (`name`, `$fault`, `$metadata`,
 * `$retryable`), so store/sdk-calls.ts treats them alike.
 */
import { createRequire } from 'node:module';
import type * as Http from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { sign, type CredentialProvider } from '#shared/aws/sigv4.ts';

// An ES import of node:http makes Node evaluate its WebSocket getter, which loads undici (≈25 ms
// of a cold start); require() does not.
const http = createRequire(import.meta.url)('node:http') as typeof Http;

export interface ResponseMetadata {
  httpStatusCode?: number;
  requestId?: string;
  attempts?: number;
  totalRetryDelay?: number;
}

export interface ServiceErrorInit {
  message: string;
  name?: string;
  $fault?: 'client' | 'server';
  $metadata?: ResponseMetadata;
  $retryable?: { throttling?: boolean };
}

/** An error the service answered with, shaped as the SDK's ServiceException. */
export class AwsServiceError extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: ResponseMetadata;
  readonly $retryable?: { throttling?: boolean };
  constructor(init: ServiceErrorInit) {
    super(init.message);
    this.name = init.name ?? new.target.name;
    this.$fault = init.$fault ?? 'client';
    this.$metadata = init.$metadata ?? {};
    if (init.$retryable) this.$retryable = init.$retryable;
  }
}

/** Errors that mean "slow down": retried after a longer wait, and flagged `$retryable.throttling`. */
const THROTTLING = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ThrottledException',
  'LimitExceededException',
]);
/** Other errors worth another attempt (besides 5xx): transient on the service's side. */
const TRANSIENT = new Set(['TransactionInProgressException', 'InternalServerError', 'ServiceUnavailable', 'RequestTimeout', 'RequestTimeoutException']);
/** Connection failures worth another attempt. */
const NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** What every client of aws/ is built with: where, as whom, and its time limits (wiring/sdk-limits.ts). */
export interface AwsClientSettings {
  region: string;
  /** Origin to call (an embedded backend locally); the service's regional endpoint when absent. */
  endpoint?: string;
  credentials: CredentialProvider;
  maxAttempts: number;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  socketTimeoutMs: number;
}

export interface JsonServiceSettings extends AwsClientSettings {
  /** The signing name, e.g. `dynamodb`. */
  service: string;
  /** `X-Amz-Target` prefix, e.g. `DynamoDB_20120810`. */
  targetPrefix: string;
  /** e.g. `application/x-amz-json-1.0`. */
  contentType: string;
  /** Classes for the error names the callers tell apart with `instanceof`. */
  errors?: Record<string, new (init: ServiceErrorInit) => AwsServiceError>;
}

interface RawResponse {
  status: number;
  headers: Http.IncomingHttpHeaders;
  text: string;
}

/** A time limit that passed: named as the SDK names it, so it reads as an outage. */
function timeoutError(message: string): Error {
  const error = new Error(message);
  error.name = 'TimeoutError';
  return error;
}

export class JsonServiceClient {
  private readonly url: URL;
  private readonly agent: Http.Agent;
  private readonly settings: JsonServiceSettings;
  constructor(settings: JsonServiceSettings) {
    this.settings = settings;
    const suffix = settings.region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
    this.url = new URL(settings.endpoint ?? `https://${settings.service}.${settings.region}.${suffix}`);
    const options = { keepAlive: true, maxSockets: 50 };
    this.agent = this.url.protocol === 'https:' ? new HttpsAgent(options) : new http.Agent(options);
  }

  /** Closes the idle connections (a command-line run that is done). */
  destroy(): void {
    this.agent.destroy();
  }

  /** Calls `operation` with `input` (already in the service's wire shape); its parsed answer. */
  async call(operation: string, input: unknown): Promise<{ output: Record<string, unknown>; $metadata: ResponseMetadata }> {
    const body = JSON.stringify(input);
    let totalRetryDelay = 0;
    for (let attempt = 1; ; attempt++) {
      let error: unknown;
      try {
        const response = await this.send(operation, body);
        const $metadata: ResponseMetadata = {
          httpStatusCode: response.status,
          requestId: header(response.headers, 'x-amzn-requestid'),
          attempts: attempt,
          totalRetryDelay,
        };
        if (response.status >= 200 && response.status < 300) return { output: response.text ? (JSON.parse(response.text) as Record<string, unknown>) : {}, $metadata };
        error = this.serviceError(response, $metadata);
      } catch (thrown) {
        error = thrown;
      }
      if (attempt >= this.settings.maxAttempts || !retryable(error)) {
        if (error instanceof Error) Object.assign(error, { $metadata: { ...(error as { $metadata?: ResponseMetadata }).$metadata, attempts: attempt, totalRetryDelay } });
        throw error;
      }
      // The SDK's standard strategy: full jitter over an exponential ceiling.
      const base = error instanceof AwsServiceError && error.$retryable?.throttling ? 500 : 100;
      const delay = Math.floor(Math.random() * Math.min(20_000, base * 2 ** (attempt - 1)));
      totalRetryDelay += delay;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  private async send(operation: string, body: string): Promise<RawResponse> {
    const { settings, url } = this;
    const credentials = await settings.credentials();
    const headers = sign(
      {
        method: 'POST',
        host: url.host,
        path: '/',
        headers: { 'content-type': settings.contentType, 'x-amz-target': `${settings.targetPrefix}.${operation}` },
        body,
      },
      credentials,
      { region: settings.region, service: settings.service },
    );
    headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise<RawResponse>((resolve, reject) => {
      let connectTimer: NodeJS.Timeout | undefined;
      const request = (url.protocol === 'https:' ? httpsRequest : http.request)(
        { protocol: url.protocol, hostname: url.hostname, port: url.port, path: '/', method: 'POST', headers, agent: this.agent },
        (response) => {
          clearTimeout(headersTimer);
          response.setEncoding('utf8');
          response.setTimeout(settings.socketTimeoutMs, () => response.destroy(timeoutError(`no data from ${settings.service} for ${settings.socketTimeoutMs} ms`)));
          let text = '';
          response.on('data', (chunk: string) => (text += chunk));
          response.on('error', reject);
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
        },
      );
      const headersTimer = setTimeout(
        () => request.destroy(timeoutError(`${settings.service} did not answer within ${settings.requestTimeoutMs} ms`)),
        settings.requestTimeoutMs,
      );
      request.on('socket', (socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => request.destroy(timeoutError(`no connection to ${settings.service} within ${settings.connectionTimeoutMs} ms`)), settings.connectionTimeoutMs);
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      request.on('error', (error) => {
        clearTimeout(headersTimer);
        clearTimeout(connectTimer);
        reject(error);
      });
      request.end(body);
    });
  }

  /** The error a non-2xx answer stands for: `__type` (or `x-amzn-errortype`) names it. */
  private serviceError(response: RawResponse, $metadata: ResponseMetadata): AwsServiceError {
    let parsed: { __type?: unknown; message?: unknown; Message?: unknown } = {};
    try {
      parsed = JSON.parse(response.text) as typeof parsed;
    } catch {
      // Not JSON (a proxy's page): the status alone tells what happened.
    }
    const type = typeof parsed.__type === 'string' ? parsed.__type : header(response.headers, 'x-amzn-errortype');
    const name = type ? type.split('#').pop()!.split(':')[0]! : response.status >= 500 ? 'InternalServerError' : 'UnknownError';
    const message = typeof parsed.message === 'string' ? parsed.message : typeof parsed.Message === 'string' ? parsed.Message : `${this.settings.service} answered ${response.status}`;
    const init: ServiceErrorInit = {
      name,
      message,
      $fault: response.status >= 500 ? 'server' : 'client',
      $metadata,
      ...(THROTTLING.has(name) || response.status === 429 ? { $retryable: { throttling: true } } : {}),
    };
    const ErrorClass = this.settings.errors?.[name] ?? AwsServiceError;
    return new ErrorClass(init);
  }
}

function header(headers: Http.IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** True for failures another attempt may get past. */
function retryable(error: unknown): boolean {
  if (error instanceof AwsServiceError) {
    const status = error.$metadata.httpStatusCode ?? 0;
    return error.$retryable?.throttling === true || TRANSIENT.has(error.name) || status >= 500 || status === 429;
  }
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return error.name === 'TimeoutError' || (code !== undefined && NETWORK.has(code));
}
