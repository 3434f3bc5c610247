/** The tweet syndication API, which may answer an HTML block page: bodies are parsed defensively. node:https, as fetch loads undici at cold start. */
import { createRequire } from 'node:module';
import type { IncomingMessage, request as HttpRequest } from 'node:http';

export type SyndicationResult = { kind: 'found'; tweet: Record<string, unknown> } | { kind: 'not-found'; reason: 'status-404' | 'empty' | 'tombstone' };

/** Raised for every upstream failure; the message says what went wrong (for logs, not clients). */
export class SyndicationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SyndicationError';
  }
}

export interface SyndicationClient {
  /** Fetches one tweet; throws SyndicationError on failure, time-out or an unusable body. */
  fetchTweet(id: string, signal?: AbortSignal): Promise<SyndicationResult>;
}

export interface SyndicationSettings {
  upstreamUrl: string;
  /** Longest wait for one call: connecting, the headers and the whole body together. */
  timeoutMs: number;
}

/** A body far larger than any tweet payload is not a tweet and is not read to the end. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The `token` the public embed clients send, derived from the id (docs/capture.md, Tweets). */
export function tweetToken(id: string): string {
  return ((Number(id) / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, '');
}

export function tweetResultUrl(upstreamUrl: string, id: string): string {
  const query = new URLSearchParams({ id, lang: 'en', token: tweetToken(id) });
  return `${upstreamUrl}/tweet-result?${query}`;
}

// Required on first use, not imported: an ESM import of node:http loads undici, and a process
// loads TLS and zlib only if its upstream needs them (the local stand-ins use neither).
const requireBuiltin = createRequire(import.meta.url);
let httpRequest: typeof HttpRequest | undefined;
let httpsRequest: typeof HttpRequest | undefined;
let zlib: typeof import('node:zlib') | undefined;

function requestFunction(url: URL): typeof HttpRequest {
  if (url.protocol === 'https:') return (httpsRequest ??= (requireBuiltin('node:https') as typeof import('node:https')).request);
  return (httpRequest ??= (requireBuiltin('node:http') as typeof import('node:http')).request);
}

const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

/** Resolves once the headers are in; a kept-alive connection the upstream closed while Lambda was frozen fails on reuse, so is retried once. */
function get(url: URL, signal: AbortSignal, retried = false): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = requestFunction(url)(url, {
      method: 'GET',
      // fetch's request headers; the upstream offers brotli over TLS only.
      headers: {
        accept: 'application/json',
        'accept-encoding': url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate',
        'accept-language': '*',
        'sec-fetch-mode': 'cors',
        'user-agent': 'node',
      },
      signal,
    });
    let answered = false;
    req.once('response', (response) => {
      answered = true;
      resolve(response);
    });
    // Before the response this rejects; after it, the same failure reaches the body as an error.
    req.on('error', (error: NodeJS.ErrnoException) => {
      const stale = !answered && !retried && req.reusedSocket && !signal.aborted && STALE_CONNECTION.has(error.code ?? '');
      if (stale) resolve(get(url, signal, true));
      else reject(error);
    });
    req.end();
  });
}

/** The content codings fetch decodes. */
const CODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** More codings than this on one body is an attack on the decoder, not a tweet (fetch's limit too). */
const MAX_CONTENT_CODINGS = 5;

/** Undoes one coding, at most MAX_BODY_BYTES out; lenient with a stream cut short at its end, as browsers, curl and fetch are. */
function decode(coding: string, input: Buffer): Promise<Buffer> {
  const z = (zlib ??= requireBuiltin('node:zlib') as typeof import('node:zlib'));
  const options = { finishFlush: z.constants.Z_SYNC_FLUSH, maxOutputLength: MAX_BODY_BYTES };
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, output: Buffer) => (error ? reject(error) : resolve(output));
    if (coding === 'br') z.brotliDecompress(input, { finishFlush: z.constants.BROTLI_OPERATION_FLUSH, maxOutputLength: MAX_BODY_BYTES }, done);
    // deflate comes zlib-wrapped or raw (some servers), told apart by the first byte.
    else if (coding === 'deflate') ((input[0]! & 0x0f) === 0x08 ? z.inflate : z.inflateRaw)(input, options, done);
    else z.gunzip(input, options, done);
  });
}

/** Undoes the body's content codings, last applied first; a coding fetch does not know leaves the body as sent. */
async function decodeBody(body: Buffer, contentEncoding: string | undefined): Promise<Buffer> {
  const codings = contentEncoding
    ? contentEncoding
        .toLowerCase()
        .split(',')
        .map((coding) => coding.trim())
    : [];
  if (codings.length > MAX_CONTENT_CODINGS) throw new SyndicationError(`body has ${codings.length} content codings`);
  if (!codings.every((coding) => CODINGS.has(coding))) return body;
  for (const coding of codings.reverse()) {
    try {
      body = await decode(coding, body);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new SyndicationError(`body is larger than ${MAX_BODY_BYTES} bytes once decoded`, { cause: error });
      }
      throw new SyndicationError(`body does not decode as ${coding}`, { cause: error });
    }
  }
  return body;
}

async function readText(response: IncomingMessage): Promise<string> {
  const declared = Number(response.headers['content-length'] ?? NaN);
  if (declared > MAX_BODY_BYTES) {
    // Release the connection now rather than when the time-out aborts the unread body.
    response.destroy();
    throw new SyndicationError(`body of ${declared} bytes is too large`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early (the limit, an error) destroys the response and with it the connection.
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new SyndicationError(`body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const body = await decodeBody(Buffer.concat(chunks, size), response.headers['content-encoding']);
  return body.toString('utf8');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function classifyBody(text: string): SyndicationResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SyndicationError(`body is not JSON (starts with ${JSON.stringify(text.slice(0, 40))})`, { cause: error });
  }
  if (!isPlainObject(parsed)) throw new SyndicationError('body is JSON but not an object');
  if (Object.keys(parsed).length === 0) return { kind: 'not-found', reason: 'empty' };
  if (parsed.__typename === 'TweetTombstone') return { kind: 'not-found', reason: 'tombstone' };
  if (parsed.__typename === 'Tweet' && typeof parsed.id_str === 'string' && isPlainObject(parsed.user)) {
    return { kind: 'found', tweet: parsed };
  }
  throw new SyndicationError(`unexpected body shape (__typename ${JSON.stringify(parsed.__typename)})`);
}

export function createSyndicationClient(settings: SyndicationSettings): SyndicationClient {
  return {
    async fetchTweet(id, signal) {
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        const response = await get(new URL(tweetResultUrl(settings.upstreamUrl, id)), combined);
        const status = response.statusCode ?? 0;
        if (status === 200) return classifyBody(await readText(response));
        // Other answers' bodies are not read; destroying the response closes the connection.
        response.destroy();
        if (status === 404) return { kind: 'not-found', reason: 'status-404' };
        if (status >= 300 && status < 400) throw new SyndicationError(`upstream redirected (${status}); redirects are not followed`);
        throw new SyndicationError(`upstream answered ${status}`);
      } catch (error) {
        if (error instanceof SyndicationError) throw error;
        if (timeout.aborted) throw new SyndicationError(`no answer within ${settings.timeoutMs} ms`, { cause: error });
        throw new SyndicationError('request failed', { cause: error });
      }
    },
  };
}
