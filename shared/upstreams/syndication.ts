/**
 * The tweet syndication upstream (the API behind embedded tweets). It answers a tweet id with the
 * public payload, `{}` or 404 for no such tweet, a `TweetTombstone` for a deleted or private one,
 * and sometimes an HTML page instead of JSON when it blocks a caller: every body is parsed
 * defensively and anything unexpected is a failure, never passed on.
 */

/** What the upstream said about one id. */
export type SyndicationResult =
  | { kind: 'found'; tweet: Record<string, unknown> }
  | { kind: 'not-found'; reason: 'status-404' | 'empty' | 'tombstone' };

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
  /** Origin of the API, e.g. https://cdn.syndication.twimg.com. */
  upstreamUrl: string;
  timeoutMs: number;
  /** Replaceable for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** Payloads are 1–20 KB; a body far larger is not a tweet and is not read to the end. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The `token` the public embed clients send, derived from the id (FACTS: Upstreams). */
export function tweetToken(id: string): string {
  return ((Number(id) / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, '');
}

/** The tweet-result URL of `id` on the upstream origin `upstreamUrl`, with the derived token. */
export function tweetResultUrl(upstreamUrl: string, id: string): string {
  const query = new URLSearchParams({ id, lang: 'en', token: tweetToken(id) });
  return `${upstreamUrl}/tweet-result?${query}`;
}

async function readText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > MAX_BODY_BYTES) {
    // Release the connection now rather than when the time-out aborts the unread body.
    await response.body?.cancel();
    throw new SyndicationError(`body of ${declared} bytes is too large`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new SyndicationError(`body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Classifies a 200 body: a tweet, a not-found marker, or a failure. */
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

/** A client of the syndication API with a time-out per call (connect, headers and body together). */
export function createSyndicationClient(settings: SyndicationSettings): SyndicationClient {
  const fetchImpl = settings.fetch ?? fetch;
  return {
    async fetchTweet(id, signal) {
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        const response = await fetchImpl(tweetResultUrl(settings.upstreamUrl, id), {
          headers: { accept: 'application/json' },
          redirect: 'error',
          signal: combined,
        });
        if (response.status === 404) {
          await response.body?.cancel();
          return { kind: 'not-found', reason: 'status-404' };
        }
        if (response.status !== 200) {
          await response.body?.cancel();
          throw new SyndicationError(`upstream answered ${response.status}`);
        }
        return classifyBody(await readText(response));
      } catch (error) {
        if (error instanceof SyndicationError) throw error;
        if (timeout.aborted) throw new SyndicationError(`no answer within ${settings.timeoutMs} ms`, { cause: error });
        throw new SyndicationError('request failed', { cause: error });
      }
    },
  };
}
