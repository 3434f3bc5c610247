/**
 * Synthetic API Gateway HTTP API (payload v2) events and Lambda contexts, for calling handlers
 * directly in unit tests without the local runtime.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

export interface ApiEventOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** A string is sent as is; anything else as JSON (with a JSON Content-Type unless one is given). */
  body?: unknown;
  pathParameters?: Record<string, string>;
  sourceIp?: string;
}

/** An event as API Gateway delivers it: lowercased header names, raw path and query, request context. */
export function apiEvent(options: ApiEventOptions): APIGatewayProxyEventV2 {
  const method = (options.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const rawQueryString = new URLSearchParams(options.query ?? {}).toString();
  const requestId = randomUUID();
  const sourceIp = options.sourceIp ?? '203.0.113.10';
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: options.path,
    rawQueryString,
    headers,
    queryStringParameters: options.query,
    pathParameters: options.pathParameters,
    body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: 'easel.test',
      domainPrefix: 'easel',
      http: { method, path: options.path, protocol: 'HTTP/1.1', sourceIp, userAgent: headers['user-agent'] ?? 'vitest' },
      requestId,
      routeKey: '$default',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
  };
}

/** The parts of a Lambda context the handlers read, with a remaining time that never runs out. */
export function lambdaContext(overrides: Partial<Context> = {}): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'easel-test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:easel-test',
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: '/aws/lambda/easel-test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
    ...overrides,
  };
}
