/** Auth of the maintainers' internal routes: the shared secret in X-Easel-Internal-Secret. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { config } from '#shared/config.ts';
import type { Config } from '#shared/config.ts';
import { UnauthorizedError, UpstreamUnavailableError } from '#shared/errors.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';

/** Lower-case, as event headers arrive. */
export const INTERNAL_SECRET_HEADER = 'x-easel-internal-secret';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Compares digests: timingSafeEqual needs equal lengths, and digests leak neither content nor length. */
export function secretMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined || presented === '') return false;
  return timingSafeEqual(digest(presented), digest(expected));
}

type SecretSource = NonNullable<Config['internalSecret']>;

/** A failed load is forgotten so the next request retries it. */
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
  /** Defaults to the configuration's when the key is absent. */
  source?: Config['internalSecret'];
  /** Reads a secret configured by ARN (wiring/internal-auth.ts passes Secrets Manager). */
  read?: (arn: string) => Promise<string>;
}

/** 401 without the secret. With no secret configured the function fails to start rather than serve unauthenticated. */
export function internalAuth(options: InternalAuthOptions): HttpMiddleware {
  const { operationId } = options;
  const source = 'source' in options ? options.source : config().internalSecret;
  if (!source) throw new Error(`Route ${operationId}: auth 'internal' needs INTERNAL_SECRET or INTERNAL_SECRET_ARN`);
  const secret = secretLoader(source, options.read);
  // Fetch during the cold start, so the first request does not wait.
  secret().catch(() => undefined);
  return {
    before: async ({ event }) => {
      const expected = await secret();
      const presented = event.headers?.[INTERNAL_SECRET_HEADER];
      if (!secretMatches(presented, expected)) {
        throw new UnauthorizedError({
          hint: 'This maintenance route needs the internal secret in X-Easel-Internal-Secret.',
          cause: presented ? 'X-Easel-Internal-Secret does not match' : 'no X-Easel-Internal-Secret',
        });
      }
    },
  };
}
