/**
 * What handlers return. A plain value becomes a 200 JSON response; a Reply says status,
 * headers, cookies and body (JSON, text, bytes sent base64 through API Gateway, or a stream).
 */
import type { Readable } from 'node:stream';
import type { LambdaContext, LambdaResult } from '#shared/route-types.ts';

const REPLY = Symbol('easel.reply');

/**
 * The largest raw body a buffered binary response may have. Lambda caps a synchronous response
 * at 6 MB (6,291,456 bytes) of JSON, and API Gateway needs binary bodies base64-encoded (4/3 of
 * the bytes): 4,500,000 bytes become 6,000,000 characters, leaving room for status and headers.
 */
export const LAMBDA_MAX_BINARY_BYTES = 4_500_000;

/** A body read once from a stream: piped to the client locally, buffered on Lambda. */
export interface StreamBody {
  kind: 'stream';
  value: Readable;
  /** Called when a buffered copy would exceed LAMBDA_MAX_BINARY_BYTES: the error to answer with. */
  tooLarge: (limitBytes: number) => Error;
}

export interface Reply {
  [REPLY]: true;
  status: number;
  headers: Record<string, string>;
  cookies: string[];
  body:
    | { kind: 'json'; value: unknown }
    | { kind: 'text'; value: string }
    | { kind: 'binary'; value: Uint8Array }
    | { kind: 'empty' }
    | StreamBody;
}

type Extra = { headers?: Record<string, string>; cookies?: string[] };

function make(status: number, body: Reply['body'], extra: Extra = {}): Reply {
  return { [REPLY]: true, status, headers: extra.headers ?? {}, cookies: extra.cookies ?? [], body };
}

export const reply = {
  json: (value: unknown, status = 200, extra?: Extra) => make(status, { kind: 'json', value }, extra),
  text: (value: string, contentType: string, status = 200, extra?: Extra) =>
    make(status, { kind: 'text', value }, { ...extra, headers: { 'Content-Type': contentType, ...extra?.headers } }),
  binary: (value: Uint8Array, contentType: string, status = 200, extra?: Extra) =>
    make(status, { kind: 'binary', value }, { ...extra, headers: { 'Content-Type': contentType, ...extra?.headers } }),
  empty: (status = 204, extra?: Extra) => make(status, { kind: 'empty' }, extra),
  /**
   * Bytes from a stream. The local server pipes them as they arrive; on Lambda (no response
   * streaming behind an HTTP API) they are buffered up to LAMBDA_MAX_BINARY_BYTES, and a longer
   * body answers with the error `tooLarge` returns.
   */
  stream: (value: Readable, status: number, options: Extra & { tooLarge: StreamBody['tooLarge'] }) =>
    make(status, { kind: 'stream', value, tooLarge: options.tooLarge }, options),
};

export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && REPLY in value;
}

// Only the local runtime marks its contexts; a Lambda context never carries the symbol, so the
// deployed path always buffers.
const LOCAL_STREAMING = Symbol.for('easel.localStreaming');
const STREAM_BODY = Symbol.for('easel.streamBody');

/** Marks a context created by the local server, which can pipe a stream body to the client. */
export function allowStreaming(context: LambdaContext): LambdaContext {
  return Object.assign(context, { [LOCAL_STREAMING]: true });
}

/** True only under the local server: a stream body may then be piped instead of buffered. */
export function canStream(context: LambdaContext | undefined): boolean {
  return context !== undefined && (context as { [LOCAL_STREAMING]?: boolean })[LOCAL_STREAMING] === true;
}

/** Attaches the body stream to a result for the local server to pipe (the result's own body stays empty). */
export function withStream(result: LambdaResult, stream: Readable): LambdaResult {
  return Object.assign(result, { [STREAM_BODY]: stream });
}

/** The stream the local server should pipe for this result, if any. */
export function streamOf(result: LambdaResult): Readable | undefined {
  return (result as { [STREAM_BODY]?: Readable })[STREAM_BODY];
}
