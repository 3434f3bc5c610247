/** Each AWS call as an X-Ray subsegment by the X-Ray SDK's middleware (docs/deploy.md, "Traces"); the SDK loads on a sampled call only (cold start). */
import type * as XRay from 'aws-xray-sdk-core';

export interface TraceHeader {
  root: string;
  parent: string;
  sampled: boolean;
}

/** `Root=1-…;Parent=…;Sampled=1` (Lambda's `_X_AMZN_TRACE_ID`); undefined without a root and a parent. */
export function parseTraceHeader(value: string | undefined): TraceHeader | undefined {
  if (!value) return undefined;
  const fields = new Map(value.split(';').map((part) => part.trim().split('=', 2) as [string, string]));
  const root = fields.get('Root');
  const parent = fields.get('Parent');
  if (!root || !parent) return undefined;
  return { root, parent, sampled: fields.get('Sampled') === '1' };
}

type Next<I, O> = (args: { input: I; request: unknown }) => Promise<{ output: O; response: unknown }>;
type Context = { clientName?: string; commandName?: string };
type Middleware<I = object, O = object> = (next: Next<I, O>, context: Context) => Next<I, O>;

/** What of an SDK v3 client this needs: its middleware stack and its configuration (the region). */
export interface TraceableClient<I, O> {
  middlewareStack: { add(middleware: Middleware<I, O>, options: { step: 'build'; name: string }): void };
  config: object;
}

let loading: Promise<typeof XRay> | undefined;

/** Imports the X-Ray SDK once per process; an object so tests can observe that it is not called. */
export const xrayLoader = {
  load: (): Promise<typeof XRay> => {
    loading ??= import('aws-xray-sdk-core').then((module) => (module as unknown as { default?: typeof XRay }).default ?? module);
    return loading;
  },
};

/** The middleware `captureAWSv3Client` would add, taken from its plugin so the call under way is traced too (its handler chain is built). */
function xrayMiddleware<I, O>(xray: typeof XRay, client: TraceableClient<I, O>): Middleware<I, O> {
  let middleware: Middleware<I, O> | undefined;
  const stack = {
    remove: () => false,
    use: (plugin: { applyToStack(stack: { add(m: Middleware<I, O>): void }): void }) => plugin.applyToStack({ add: (m) => (middleware = m) }),
  };
  xray.captureAWSv3Client({ middlewareStack: stack, config: client.config });
  if (!middleware) throw new Error('aws-xray-sdk-core: captureAWSv3Client added no middleware');
  return middleware;
}

/** Sampled by Lambda for this invocation, with a daemon to send to. */
const sampled = (): boolean => process.env.AWS_XRAY_DAEMON_ADDRESS !== undefined && parseTraceHeader(process.env._X_AMZN_TRACE_ID)?.sampled === true;

/** Hands each call of a sampled invocation to the X-Ray SDK's middleware where `captureAWSv3Client` puts it; without a daemon, adds nothing. */
export function traceAwsCalls<I, O>(client: TraceableClient<I, O>): void {
  if (process.env.AWS_XRAY_DAEMON_ADDRESS === undefined) return;
  let handOver: Promise<Middleware<I, O> | undefined> | undefined;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!sampled()) return next(args);
      // A trace is never worth a failed call: without the SDK, calls go on untraced.
      handOver ??= xrayLoader.load().then(
        (xray) => xrayMiddleware(xray, client),
        (error: unknown) => void process.emitWarning(`X-Ray SDK not loaded, AWS calls go untraced: ${String(error)}`),
      );
      const middleware = await handOver;
      return middleware ? middleware(next, context)(args) : next(args);
    },
    { step: 'build', name: 'easelXRay' },
  );
}
