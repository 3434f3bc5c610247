/**
 * For tests that hold Easel's AWS clients to the SDK's requests: the SDK adds telemetry headers
 * (user agents, an invocation id, the attempt count) that AWS does not need and Easel's clients
 * do not send. Removed before the SDK signs, its requests compare with ours header for header,
 * signature included.
 */
const TELEMETRY = ['user-agent', 'x-amz-user-agent', 'amz-sdk-invocation-id', 'amz-sdk-request'];

interface SdkClient {
  middlewareStack: { addRelativeTo(middleware: never, options: { relation: 'before'; toMiddleware: string; name: string }): void };
}

/** `client`, which from now on signs and sends its requests without the telemetry headers. */
export function withoutTelemetry<C extends SdkClient>(client: C): C {
  const strip = (next: (args: { request: unknown }) => Promise<unknown>) => async (args: { request: unknown }) => {
    const { headers } = args.request as { headers: Record<string, string> };
    for (const name of TELEMETRY) delete headers[name];
    return next(args);
  };
  client.middlewareStack.addRelativeTo(strip as never, { relation: 'before', toMiddleware: 'httpSigningMiddleware', name: 'withoutTelemetry' });
  return client;
}
