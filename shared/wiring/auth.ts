/** The auth middleware on this container's authenticator: `route(row, fn, { authenticate })`. */
import { authenticate as authenticateWith } from '#shared/http/auth.ts';
import type { AuthenticateOptions } from '#shared/http/auth.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import { containerAuthenticator } from '#shared/wiring/authenticator.ts';

/** A static import: esbuild cannot tree-shake a dynamic import(), and these functions bundle DynamoDB anyway. */
export const authenticate = (options: Omit<AuthenticateOptions, 'authenticator'>): HttpMiddleware =>
  authenticateWith({ ...options, authenticator: async () => containerAuthenticator() });
