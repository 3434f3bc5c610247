/**
 * Each AWS call as an X-Ray subsegment of the invocation's trace, sent to the X-Ray daemon Lambda
 * runs beside an actively traced function (docs/deploy.md, "Traces"). A few lines over UDP rather
 * than the X-Ray SDK, whose import alone would take most of a cold start (docs/performance.md).
 */
import type * as Crypto from 'node:crypto';
import type * as Dgram from 'node:dgram';

/** The daemon's wire format: this header line, then one segment document. */
const DAEMON_HEADER = '{"format":"json","version":1}\n';

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

type Next = (args: { input: object }) => Promise<{ output: object }>;
/** What of an SDK v3 client this needs: its middleware stack. */
export interface TraceableClient {
  middlewareStack: {
    add(middleware: (next: Next, context: { commandName?: string }) => Next, options: { step: 'initialize'; name: string; priority: 'high' }): void;
  };
}

export type TraceSender = (document: string) => void;

let sender: TraceSender | undefined;

/** Replaces where documents go (tests); by default the daemon of AWS_XRAY_DAEMON_ADDRESS. */
export function setTraceSender(next: TraceSender | undefined): TraceSender | undefined {
  const previous = sender;
  sender = next;
  return previous;
}

/** The daemon's socket, opened on the first traced call; a lost datagram loses one subsegment, never the call. */
function daemonSender(address: string): TraceSender {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at);
  const port = Number(address.slice(at + 1));
  const socket = (process.getBuiltinModule('node:dgram') as typeof Dgram).createSocket('udp4');
  socket.unref();
  socket.on('error', () => undefined);
  return (document) => socket.send(DAEMON_HEADER + document, port, host, () => undefined);
}

const newId = () => (process.getBuiltinModule('node:crypto') as typeof Crypto).randomBytes(8).toString('hex');

interface CallMetadata {
  httpStatusCode?: number;
  requestId?: string;
  attempts?: number;
}

function subsegment(
  trace: TraceHeader,
  call: { service: string; operation: string; input: unknown; startedAt: number; metadata?: CallMetadata; error?: unknown },
): string {
  const status = call.metadata?.httpStatusCode ?? (call.error === undefined ? undefined : 500);
  const table = (call.input as { TableName?: unknown } | undefined)?.TableName;
  const errorName = (call.error as { name?: unknown } | undefined)?.name;
  return JSON.stringify({
    type: 'subsegment',
    id: newId(),
    trace_id: trace.root,
    parent_id: trace.parent,
    name: call.service,
    namespace: 'aws',
    start_time: call.startedAt / 1000,
    end_time: Date.now() / 1000,
    aws: {
      operation: call.operation,
      region: process.env.AWS_REGION,
      request_id: call.metadata?.requestId,
      retries: Math.max((call.metadata?.attempts ?? 1) - 1, 0),
      ...(typeof table === 'string' ? { table_name: table } : {}),
    },
    ...(status === undefined ? {} : { http: { response: { status } } }),
    ...(status !== undefined && status >= 400 && status < 500 ? { error: true } : {}),
    ...(status === 429 || (typeof errorName === 'string' && /Throttl/.test(errorName)) ? { throttle: true } : {}),
    ...(status !== undefined && status >= 500 ? { fault: true } : {}),
  });
}

/**
 * Adds the subsegment middleware to `client` when there is a daemon to send to (Lambda with
 * active tracing), so local runs and tests without a sender pay nothing. A call made outside a
 * sampled invocation, or one that sends nothing (a presigned URL), writes nothing.
 */
export function traceAwsCalls(client: TraceableClient, service: string): void {
  const address = process.env.AWS_XRAY_DAEMON_ADDRESS;
  if (!sender && !address) return;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const trace = parseTraceHeader(process.env._X_AMZN_TRACE_ID);
      const send = sender ?? (address ? (sender = daemonSender(address)) : undefined);
      if (!trace?.sampled || !send) return next(args);
      const call = { service, operation: (context.commandName ?? 'Unknown').replace(/Command$/, ''), input: args.input, startedAt: Date.now() };
      try {
        const result = await next(args);
        const metadata = (result.output as { $metadata?: CallMetadata } | undefined)?.$metadata;
        if (metadata?.httpStatusCode !== undefined) send(subsegment(trace, { ...call, metadata }));
        return result;
      } catch (error) {
        send(subsegment(trace, { ...call, error, metadata: (error as { $metadata?: CallMetadata }).$metadata }));
        throw error;
      }
    },
    { step: 'initialize', name: 'easelXRaySubsegment', priority: 'high' },
  );
}
