/** JSON logs, one per line; credential-like keys are redacted at any depth, and no URL keeps its query string or fragment. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mapStack } from '#shared/source-maps.ts';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_KEY = /cookie|authorization|api[-_]?key|secret|token|password|signature|credential/i;

export type LogSink = (line: string) => void;
let sink: LogSink = (line) => process.stdout.write(`${line}\n`);

/** Replaces where log lines go (tests capture them to prove no secret is logged). */
export function setLogSink(next: LogSink): LogSink {
  const previous = sink;
  sink = next;
  return previous;
}

let tap: LogSink | undefined;

/** Also shows `next` every line below LOG_LEVEL, so tests can scan debug lines for secrets. */
export function setLogTap(next: LogSink | undefined): LogSink | undefined {
  const previous = tap;
  tap = next;
  return previous;
}

function threshold(): number {
  const level = (process.env.LOG_LEVEL ?? 'info').toLowerCase();
  if (level === 'silent') return Infinity;
  return ORDER[level as Level] ?? ORDER.info;
}

// A URL's query string and fragment (up to whitespace or a quote) carry tokens: `…/reset?token=…`.
const URL_TAIL = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#"'<>]*)[?#][^\s"'<>]*/gi;

export function withoutUrlQueries(text: string): string {
  return text.includes('://') ? text.replace(URL_TAIL, '$1') : text;
}

function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return withoutUrlQueries(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return serializeError(value);
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? '[redacted]' : redact(item, depth + 1);
  }
  return out;
}

/** Error → plain object with name, message, code, stack (source-mapped, shared/source-maps.ts) and the cause chain. */
export function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const out: Record<string, unknown> = { name: error.name, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  if (error.stack) out.stack = mapStack(error.stack);
  if (error.cause !== undefined) out.cause = serializeError(error.cause);
  return out;
}

// Fields every line of one invocation carries (request id, trace id, cold start), whoever writes it.
const context = new AsyncLocalStorage<Record<string, unknown>>();

/** Runs `fn` with `fields` on every log line it writes, awaited work included. */
export function withLogContext<T>(fields: Record<string, unknown>, fn: () => T): T {
  return context.run(fields, fn);
}

function write(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  const shown = ORDER[level] >= threshold();
  if (!shown && !tap) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg: withoutUrlQueries(msg), ...context.getStore(), ...(redact(fields) as object) });
  tap?.(line);
  if (shown) sink(line);
}

/** A record of its own shape (an EMF metric line), written unless LOG_LEVEL is `silent`: info off keeps metrics on. */
export function writeRecord(record: Record<string, unknown>): void {
  const shown = threshold() !== Infinity;
  if (!shown && !tap) return;
  const line = JSON.stringify({ ...context.getStore(), ...(redact(record) as object) });
  tap?.(line);
  if (shown) sink(line);
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};
