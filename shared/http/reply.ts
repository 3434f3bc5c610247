/** What handlers return when a plain value (sent as JSON) is not enough. */
import type { Readable } from 'node:stream';
import type { LambdaContext, LambdaResult } from '#shared/route-types.ts';

const REPLY = Symbol('easel.reply');

/** Lambda's 6 MB response cap, less base64's 4/3 growth and room for status and headers. */
export const LAMBDA_MAX_BINARY_BYTES = 4_500_000;

/** A body read once from a stream: piped to the client locally, buffered on Lambda. */
export interface StreamBody {
  kind: 'stream';
  value: Readable;
  /** The error to answer with when a buffered copy would exceed LAMBDA_MAX_BINARY_BYTES. */
  tooLarge: (limitBytes: number) => Error;
}

export interface Reply {
  [REPLY]: true;
  status: number;
  headers: Record<string, string>;
  cookies: string[];
  body: { kind: 'json'; value: unknown } | { kind: 'text'; value: string } | { kind: 'binary'; value: Uint8Array } | { kind: 'empty' } | StreamBody;
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
  stream: (value: Readable, status: number, options: Extra & { tooLarge: StreamBody['tooLarge'] }) =>
    make(status, { kind: 'stream', value, tooLarge: options.tooLarge }, options),
};

export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && REPLY in value;
}

// Only the local runtime marks its contexts, so the deployed path always buffers.
const LOCAL_STREAMING = Symbol.for('easel.localStreaming');
const STREAM_BODY = Symbol.for('easel.streamBody');

export function allowStreaming(context: LambdaContext): LambdaContext {
  return Object.assign(context, { [LOCAL_STREAMING]: true });
}

export function canStream(context: LambdaContext | undefined): boolean {
  return context !== undefined && (context as { [LOCAL_STREAMING]?: boolean })[LOCAL_STREAMING] === true;
}

/** For the local server to pipe; the result's own body stays empty. */
export function withStream(result: LambdaResult, stream: Readable): LambdaResult {
  return Object.assign(result, { [STREAM_BODY]: stream });
}

export function streamOf(result: LambdaResult): Readable | undefined {
  return (result as { [STREAM_BODY]?: Readable })[STREAM_BODY];
}

/** Ends and forgets a result's stream body (a HEAD sends none). */
export function dropStream(result: LambdaResult): void {
  streamOf(result)?.destroy();
  delete (result as { [STREAM_BODY]?: Readable })[STREAM_BODY];
}
