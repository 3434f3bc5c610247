/** What API Gateway does for the local server: request → payload 2.0 event, handler result → response. */
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { streamOf } from '#shared/http/reply.ts';
import type { LambdaContext, LambdaEvent, LambdaResult } from '#shared/route-types.ts';
import { log, serializeError } from '#shared/log.ts';

// API Gateway passes these as text; everything else arrives base64-encoded.
const TEXT_TYPES = /^(text\/|application\/(json|[a-z0-9.+-]+\+json|xml|[a-z0-9.+-]+\+xml|javascript|x-www-form-urlencoded|graphql))/i;

export function isTextContent(contentType: string | undefined): boolean {
  return contentType === undefined || contentType === '' || TEXT_TYPES.test(contentType.trim());
}

/** The socket peer, IPv4-mapped IPv6 unwrapped, as API Gateway reports it. */
export function sourceIpOf(req: RequestLike): string {
  const address = req.socket.remoteAddress ?? '127.0.0.1';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** What an event is made of: a request, or what the server could read of one. */
export type RequestLike = Pick<IncomingMessage, 'url' | 'method' | 'headers' | 'httpVersion' | 'socket'>;

export interface EventInput {
  req: RequestLike;
  body: Buffer;
  routeKey: string;
  pathParameters?: Record<string, string>;
}

/** Split by hand: `new URL('//x', base)` reads `//x` as a host and throws for `///`. An absolute-form target (a proxy request) keeps its path. */
export function requestTarget(target: string | undefined): { path: string; query: string } {
  let raw = target ?? '/';
  if (!raw.startsWith('/')) {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(raw);
    raw = scheme ? raw.slice(scheme[0].length) || '/' : '/';
  }
  const at = raw.indexOf('?');
  const path = at < 0 ? raw : raw.slice(0, at);
  return { path: path.split('#')[0] || '/', query: at < 0 ? '' : raw.slice(at + 1).split('#')[0]! };
}

/** The HTTP API payload 2.0 event API Gateway would build. */
export function toEvent({ req, body, routeKey, pathParameters }: EventInput): LambdaEvent {
  const target = requestTarget(req.url);
  const url = { pathname: target.path, search: target.query ? `?${target.query}` : '', searchParams: new URLSearchParams(target.query) };
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') {
      cookies = (Array.isArray(value) ? value.join('; ') : value).split(/;\s*/).filter(Boolean);
      continue;
    }
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const sourceIp = sourceIpOf(req);
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${sourceIp}` : sourceIp;
  headers['x-forwarded-proto'] = 'http';
  headers['x-forwarded-port'] = String(req.socket.localPort ?? '');

  let queryStringParameters: Record<string, string> | undefined;
  for (const [name, value] of url.searchParams) {
    queryStringParameters ??= {};
    // API Gateway joins repeated parameters with commas.
    queryStringParameters[name] = name in queryStringParameters ? `${queryStringParameters[name]},${value}` : value;
  }

  const now = new Date();
  // Bytes that are not UTF-8 travel base64-encoded, so the handler sees what was sent rather than U+FFFD.
  const text = isTextContent(headers['content-type']) && isUtf8(body);
  const event: LambdaEvent = {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies,
    headers,
    queryStringParameters,
    pathParameters,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0]!,
      http: {
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: body.length > 0 && !text,
  };
  if (body.length > 0) event.body = text ? body.toString('utf8') : body.toString('base64');
  return event;
}

/** A Lambda context whose remaining time counts down from `timeoutSeconds`. */
export function toContext(functionName: string, timeoutSeconds: number): LambdaContext {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Writes whatever is buffered at once rather than per chunk, for fewer syscalls. */
function pump(stream: Readable, res: ServerResponse): void {
  let waiting = false;
  const flush = () => {
    waiting = false;
    for (let chunk: Buffer | null = stream.read(); chunk !== null; chunk = stream.read()) {
      if (!res.write(chunk)) {
        waiting = true;
        res.once('drain', flush);
        return;
      }
    }
  };
  stream.on('readable', () => {
    if (!waiting) flush();
  });
  stream.once('end', () => res.end());
  stream.once('error', (error) => {
    log.warn('stream body failed after headers were sent', { error: serializeError(error) });
    res.destroy();
  });
  res.once('close', () => {
    if (!res.writableFinished) stream.destroy();
  });
}

/**
 * Writes a handler result as API Gateway would. A stream that fails after the headers cuts the
 * connection, so a truncated body cannot pass for a complete one.
 */
export function writeResult(res: ServerResponse, result: LambdaResult, method: string): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['Set-Cookie'] = result.cookies;
  const stream = streamOf(result);
  if (stream) {
    res.writeHead(result.statusCode ?? 200, headers);
    if (method === 'HEAD') {
      stream.destroy();
      res.end();
      return;
    }
    pump(stream, res);
    return;
  }
  const body = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  // A Content-Length: 0 on a 304 would misdescribe the cached representation; a HEAD keeps its GET's.
  const declared = Object.keys(headers).some((name) => name.toLowerCase() === 'content-length');
  if (result.statusCode !== 204 && result.statusCode !== 304 && !(method === 'HEAD' && declared)) headers['Content-Length'] = String(body.length);
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(method === 'HEAD' ? undefined : body);
}
