/**
 * Authentication of the maintainers' internal routes (auth: 'internal'): the request must carry
 * the shared secret in X-Easel-Internal-Secret. The secret comes from configuration — the value
 * itself locally, a Secrets Manager secret in the cloud, fetched once per container at cold start
 * by the reader wiring/internal-auth.ts passes in.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { config } from '#shared/config.ts';
import type { Config } from '#shared/config.ts';
import { UnauthorizedError, UpstreamUnavailableError } from '#shared/errors.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';

/** The request header that carries the secret (event headers arrive lower-cased). */
export const INTERNAL_SECRET_HEADER = 'x-easel-internal-secret';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * True when `presented` is the secret. Both sides are hashed first: timingSafeEqual needs equal
 * lengths, and comparing fixed-size digests leaks neither the secret's content nor its length.
 */
export function secretMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined || presented === '') return false;
  return timingSafeEqual(digest(presented), digest(expected));
}

type SecretSource = NonNullable<Config['internalSecret']>;

/** Loads the secret once; a failed load is forgotten so the next request retries it. */
function secretLoader(source: SecretSource, read: ((arn: string) => Promise<string>) | undefined): () => Promise<string> {
  if ('value' in source) return async () => source.value;
  if (!read) throw new Error('A secret configured by ARN needs a reader: build the middleware through wiring/internal-auth.ts');
  let pending: Promise<string> | undefined;
  return () => {
    pending ??= read(source.arn).catch((error: unknown) => {
      pending = undefined;
      throw new UpstreamUnavailableError('The internal secret could not be loaded; retry with back-off.', error);
    });
    return pending;
  };
}

export interface InternalAuthOptions {
  operationId: string;
  /** Where the secret is; the configuration's when the key is absent. */
  source?: Config['internalSecret'];
  /** How a secret configured by ARN is read (wiring/internal-auth.ts passes Secrets Manager). */
  read?: (arn: string) => Promise<string>;
}

/**
 * Refuses the request with 401 unless it carries the internal secret. Built at cold start: a
 * function without a configured secret (or a reader for one configured by ARN) fails to start
 * rather than serving unauthenticated.
 */
export function internalAuth(options: InternalAuthOptions): HttpMiddleware {
  const { operationId } = options;
  const source = 'source' in options ? options.source : config().internalSecret;
  if (!source) throw new Error(`Route ${operationId}: auth 'internal' needs INTERNAL_SECRET or INTERNAL_SECRET_ARN`);
  const secret = secretLoader(source, options.read);
  // Start fetching now, during the cold start, so the first request does not wait for it.
  secret().catch(() => undefined);
  return {
    before: async ({ event }) => {
      const expected = await secret();
      if (!secretMatches(event.headers?.[INTERNAL_SECRET_HEADER], expected)) {
        throw new UnauthorizedError({ hint: 'This maintenance route needs the internal secret in X-Easel-Internal-Secret.' });
      }
    },
  };
}
