/**
 * The HTTP under every client in aws/: Node's own http(s) with keep-alive, the time limits and
 * retries of the SDK clients (wiring/sdk-limits.ts), and errors in the SDK's shape. The protocols
 * over it build, sign and read each request: json-protocol.ts (DynamoDB, SQS) and s3.ts (S3's
 * REST API).
 *
 * What it does as the SDK does: a time limit to connect, to receive the response headers and
 * between body chunks; up to `maxAttempts` attempts for throttling, 5xx, time-outs and network
 * errors, with the SDK's full-jitter back-off (base 100 ms, 500 ms when throttled); errors carry
 * `name`, `$fault`, `$metadata` and `$retryable`, so store/sdk-calls.ts treats them alike.
 */
import { createRequire } from 'node:module';
import type * as Http from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { CredentialProvider } from '#shared/aws/sigv4.ts';

// An ES import of node:http makes Node evaluate its WebSocket getter, which loads undici (≈25 ms
// of a cold start); require() does not.
const http = createRequire(import.meta.url)('node:http') as typeof Http;

export interface ResponseMetadata {
  httpStatusCode?: number;
  requestId?: string;
  extendedRequestId?: string;
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

/** Classes for the error names callers tell apart with `instanceof`. */
export type ErrorClasses = Record<string, new (init: ServiceErrorInit) => AwsServiceError>;

/**
 * A command as the SDK shapes them: its operation and its input; `O` is what the client's `send`
 * resolves to. aws-sdk-client-mock tells commands apart by class and input, so it stubs these too.
 */
export abstract class AwsCommand<I extends object, O> {
  declare readonly __output: O;
  abstract readonly operation: string;
  readonly input: I;
  constructor(input: I) {
    this.input = input;
  }
}

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
  // S3's
  'SlowDown',
]);
/** Other errors worth another attempt (besides 5xx): transient on the service's side. */
const TRANSIENT = new Set(['TransactionInProgressException', 'InternalServerError', 'ServiceUnavailable', 'RequestTimeout', 'RequestTimeoutException']);
/** Connection failures worth another attempt. */
const NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * The error a service answered with, as the SDK builds it: at fault by the status, flagged
 * `$retryable.throttling` when its name or a 429 says so, of the class `errors` has for its name.
 */
export function serviceError(answer: { name: string; message: string; status: number; $metadata: ResponseMetadata }, errors: ErrorClasses = {}): AwsServiceError {
  const { name, status } = answer;
  return new (errors[name] ?? AwsServiceError)({
    name,
    message: answer.message,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: answer.$metadata,
    ...(THROTTLING.has(name) || status === 429 ? { $retryable: { throttling: true } } : {}),
  });
}

/** One signed request, ready to send. */
export interface OutgoingRequest {
  /** The scheme, host and port to send it to. */
  origin: URL;
  method: string;
  /** The encoded path, with its query string. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: Http.IncomingHttpHeaders;
  body: Buffer;
}

/** A time limit that passed: named as the SDK names it, so it reads as an outage. */
function timeoutError(message: string): Error {
  const error = new Error(message);
  error.name = 'TimeoutError';
  return error;
}

export function header(headers: Http.IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export class AwsTransport {
  private readonly settings: AwsClientSettings;
  /** The signing name, for messages: `dynamodb did not answer within 2000 ms`. */
  private readonly service: string;
  private readonly agents = new Map<string, Http.Agent>();

  constructor(settings: AwsClientSettings, service: string) {
    this.settings = settings;
    this.service = service;
  }

  /** Closes the idle connections (a command-line run that is done). */
  destroy(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  /**
   * Sends the request `prepare` builds (again for each attempt, so each is signed afresh) and
   * hands the answer to `read`, which returns the output or throws the service's error; retries
   * what another attempt may get past. A thrown error carries the attempts in `$metadata`.
   */
  async call<T>(prepare: () => Promise<OutgoingRequest>, read: (response: RawResponse, $metadata: ResponseMetadata) => T): Promise<T> {
    let totalRetryDelay = 0;
    for (let attempt = 1; ; attempt++) {
      let error: unknown;
      try {
        const response = await this.exchange(await prepare());
        const $metadata: ResponseMetadata = { httpStatusCode: response.status };
        const requestId = header(response.headers, 'x-amzn-requestid') ?? header(response.headers, 'x-amz-request-id');
        const extendedRequestId = header(response.headers, 'x-amz-id-2');
        if (requestId !== undefined) $metadata.requestId = requestId;
        if (extendedRequestId !== undefined) $metadata.extendedRequestId = extendedRequestId;
        Object.assign($metadata, { attempts: attempt, totalRetryDelay });
        return read(response, $metadata);
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

  private agent(protocol: string): Http.Agent {
    let agent = this.agents.get(protocol);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: 50 };
      agent = protocol === 'https:' ? new HttpsAgent(options) : new http.Agent(options);
      this.agents.set(protocol, agent);
    }
    return agent;
  }

  /** One attempt: the request sent, its whole answer read, within the time limits. */
  private exchange(request: OutgoingRequest): Promise<RawResponse> {
    const { settings, service } = this;
    const { origin } = request;
    return new Promise<RawResponse>((resolve, reject) => {
      let connectTimer: NodeJS.Timeout | undefined;
      const outgoing = (origin.protocol === 'https:' ? httpsRequest : http.request)(
        {
          protocol: origin.protocol,
          hostname: origin.hostname,
          port: origin.port,
          path: request.path,
          method: request.method,
          headers: request.headers,
          agent: this.agent(origin.protocol),
        },
        (response) => {
          clearTimeout(headersTimer);
          response.setTimeout(settings.socketTimeoutMs, () => response.destroy(timeoutError(`no data from ${service} for ${settings.socketTimeoutMs} ms`)));
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
        },
      );
      const headersTimer = setTimeout(() => outgoing.destroy(timeoutError(`${service} did not answer within ${settings.requestTimeoutMs} ms`)), settings.requestTimeoutMs);
      outgoing.on('socket', (socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => outgoing.destroy(timeoutError(`no connection to ${service} within ${settings.connectionTimeoutMs} ms`)), settings.connectionTimeoutMs);
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      outgoing.on('error', (error) => {
        clearTimeout(headersTimer);
        clearTimeout(connectTimer);
        reject(error);
      });
      outgoing.end(request.body);
    });
  }
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
