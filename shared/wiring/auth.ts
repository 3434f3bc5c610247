/**
 * The auth middleware on this container's authenticator, for the handlers of 'apiKey' and
 * 'session' rows: `route(row, fn, { authenticate })`.
 */
import { authenticate as authenticateWith } from '#shared/http/auth.ts';
import type { AuthenticateOptions } from '#shared/http/auth.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import { containerAuthenticator } from '#shared/wiring/authenticator.ts';

/**
 * The auth middleware of a row on the container's authenticator, created on first use. The
 * import is static: esbuild cannot tree-shake what a dynamic import() reaches, and every
 * authenticated function imports the DynamoDB client anyway.
 */
export const authenticate = (options: Omit<AuthenticateOptions, 'authenticator'>): HttpMiddleware =>
  authenticateWith({ ...options, authenticator: async () => containerAuthenticator() });
