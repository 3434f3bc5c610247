import middy from '@middy/core';
import type { MiddlewareObj } from '@middy/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidRequestError, RateLimitedError, UpstreamTimeoutError } from '#shared/errors.ts';
import { recordRequest, requestMetrics } from '#shared/http/request-metrics.ts';
import { setLogSink } from '#shared/log.ts';
import { DEFAULT_METRICS_NAMESPACE, METRICS, emitMetrics, setMetricsClock } from '#shared/metrics.ts';
import { withCaptureMetrics } from '#shared/services/capture/capture-metrics.ts';
import type { ScreenshotRequest, ScreenshotResult, ScreenshotService } from '#shared/services/capture/screenshot-service.ts';
import { exportImage } from '#shared/services/export.ts';
import { createTweetService } from '#shared/services/tweets.ts';
import type { LambdaContext, LambdaEvent, LambdaResult } from '#shared/route-types.ts';
import { screenshotLike } from '../support/images.ts';

/** CloudWatch's units (PutMetricData's list, which EMF takes). */
const CLOUDWATCH_UNITS = new Set([
  'Seconds',
  'Microseconds',
  'Milliseconds',
  'Bytes',
  'Kilobytes',
  'Megabytes',
  'Gigabytes',
  'Terabytes',
  'Bits',
  'Kilobits',
  'Megabits',
  'Gigabits',
  'Terabits',
  'Percent',
  'Count',
  'Bytes/Second',
  'Kilobytes/Second',
  'Megabytes/Second',
  'Gigabytes/Second',
  'Terabytes/Second',
  'Bits/Second',
  'Kilobits/Second',
  'Megabits/Second',
  'Gigabits/Second',
  'Terabits/Second',
  'Count/Second',
  'None',
]);

interface Emf {
  _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [member: string]: unknown;
}

/** The problems of a record against the EMF specification; empty when CloudWatch would extract it. */
function emfProblems(record: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const aws = record._aws as Emf['_aws'] | undefined;
  if (!aws || typeof aws !== 'object') return ['no _aws object'];
  if (!Number.isInteger(aws.Timestamp) || aws.Timestamp <= 0) problems.push('Timestamp is not epoch milliseconds');
  if (!Array.isArray(aws.CloudWatchMetrics) || aws.CloudWatchMetrics.length === 0) return [...problems, 'no CloudWatchMetrics'];
  for (const directive of aws.CloudWatchMetrics) {
    if (typeof directive.Namespace !== 'string' || directive.Namespace.length === 0 || directive.Namespace.length > 255) problems.push('bad Namespace');
    if (!Array.isArray(directive.Dimensions)) problems.push('Dimensions is not an array of sets');
    for (const set of directive.Dimensions ?? []) {
      if (!Array.isArray(set) || set.length > 30) problems.push(`bad dimension set ${JSON.stringify(set)}`);
      for (const name of set) if (typeof record[name] !== 'string') problems.push(`dimension ${name} has no string value`);
    }
    if (!Array.isArray(directive.Metrics) || directive.Metrics.length === 0 || directive.Metrics.length > 100) problems.push('bad Metrics');
    for (const metric of directive.Metrics ?? []) {
      if (!CLOUDWATCH_UNITS.has(metric.Unit)) problems.push(`unit ${metric.Unit} of ${metric.Name}`);
      const value = record[metric.Name];
      const values = Array.isArray(value) ? value : [value];
      if (values.length === 0 || values.length > 100 || !values.every((item) => typeof item === 'number' && Number.isFinite(item)))
        problems.push(`value of ${metric.Name}`);
    }
  }
  return problems;
}

let lines: string[] = [];
let restoreSink: ReturnType<typeof setLogSink>;
let restoreClock: ReturnType<typeof setMetricsClock>;
const previousLevel = process.env.LOG_LEVEL;
const previousNamespace = process.env.METRICS_NAMESPACE;

beforeEach(() => {
  lines = [];
  process.env.LOG_LEVEL = 'info';
  delete process.env.METRICS_NAMESPACE;
  restoreSink = setLogSink((line) => lines.push(line));
  restoreClock = setMetricsClock(() => 1_800_000_000_000);
});

afterEach(() => {
  setLogSink(restoreSink);
  setMetricsClock(restoreClock);
  process.env.LOG_LEVEL = previousLevel;
  if (previousNamespace === undefined) delete process.env.METRICS_NAMESPACE;
  else process.env.METRICS_NAMESPACE = previousNamespace;
});

/** Every EMF record written so far. */
const records = () => lines.map((line) => JSON.parse(line) as Emf).filter((record) => record._aws !== undefined);
/** "Name Dim=value,… = value" for each metric of each record, sorted: what CloudWatch would extract. */
const points = () =>
  records()
    .flatMap((record) =>
      record._aws.CloudWatchMetrics.flatMap((directive) =>
        directive.Metrics.map(
          (metric) =>
            `${metric.Name} ${directive.Dimensions[0]!.map((name) => `${name}=${String(record[name])}`).join(',')} = ${JSON.stringify(record[metric.Name])}`,
        ),
      ),
    )
    .sort();

describe('emitMetrics', () => {
  it('writes one valid EMF record with the namespace, the dimensions, the units and the values', () => {
    // Act
    emitMetrics(
      [
        { name: 'RouteLatency', value: 12.5, dimensions: { Operation: 'listReleases' } },
        { name: 'RateLimited', value: 1, dimensions: { Operation: 'listReleases' } },
      ],
      { requestId: 'req-1' },
    );

    // Assess
    expect(records()).toHaveLength(1);
    const record = records()[0]!;
    expect(emfProblems(record)).toEqual([]);
    expect(record._aws).toEqual({
      Timestamp: 1_800_000_000_000,
      CloudWatchMetrics: [
        { Namespace: DEFAULT_METRICS_NAMESPACE, Dimensions: [['Operation']], Metrics: [{ Name: 'RouteLatency', Unit: 'Milliseconds' }] },
        { Namespace: DEFAULT_METRICS_NAMESPACE, Dimensions: [['Operation']], Metrics: [{ Name: 'RateLimited', Unit: 'Count' }] },
      ],
    });
    expect(record).toMatchObject({ Operation: 'listReleases', RouteLatency: 12.5, RateLimited: 1, requestId: 'req-1' });
  });

  it("is a control: the checker refuses a record whose dimension has no value or whose unit is not CloudWatch's", () => {
    // Assess
    expect(
      emfProblems({ _aws: { Timestamp: 1, CloudWatchMetrics: [{ Namespace: 'E', Dimensions: [['Operation']], Metrics: [{ Name: 'X', Unit: 'ms' }] }] }, X: 1 }),
    ).toEqual(['dimension Operation has no string value', 'unit ms of X']);
  });

  it('writes one record per set of dimension values, and keeps two values of one metric apart', () => {
    // Act
    emitMetrics([
      { name: 'ExportBytes', value: 10, dimensions: { Format: 'png' } },
      { name: 'ExportBytes', value: 20, dimensions: { Format: 'webp' } },
      { name: 'ExportBytes', value: 30, dimensions: { Format: 'webp' } },
      { name: 'TruncatedCaptures', value: 1 },
    ]);

    // Assess
    for (const record of records()) expect(emfProblems(record)).toEqual([]);
    expect(points()).toEqual(['ExportBytes Format=png = 10', 'ExportBytes Format=webp = [20,30]', 'TruncatedCaptures  = 1']);
  });

  it('takes the namespace from METRICS_NAMESPACE (the stack sets its own name), and drops values that are not finite', () => {
    // Prepare
    process.env.METRICS_NAMESPACE = 'Easel-dev';

    // Act
    emitMetrics([
      { name: 'ExportTime', value: Number.NaN, dimensions: { Format: 'png' } },
      { name: 'TruncatedCaptures', value: 1 },
    ]);

    // Assess
    expect(records().map((record) => record._aws.CloudWatchMetrics.map((directive) => `${directive.Namespace} ${directive.Metrics[0]!.Name}`))).toEqual([
      ['Easel-dev TruncatedCaptures'],
    ]);
  });

  it('is written with LOG_LEVEL=error, since alarms read it, and not with silent', () => {
    // Act
    process.env.LOG_LEVEL = 'error';
    emitMetrics([{ name: 'TruncatedCaptures', value: 1 }]);
    process.env.LOG_LEVEL = 'silent';
    emitMetrics([{ name: 'TruncatedCaptures', value: 2 }]);

    // Assess
    expect(points()).toEqual(['TruncatedCaptures  = 1']);
  });

  it('declares every dimension with a short name and every metric with a CloudWatch unit', () => {
    for (const [name, metric] of Object.entries(METRICS)) {
      expect(CLOUDWATCH_UNITS.has(metric.unit), name).toBe(true);
      for (const dimension of metric.dimensions) expect(dimension).toMatch(/^[A-Z][A-Za-z]{1,30}$/);
    }
  });
});

describe('recordRequest', () => {
  it.each([
    [200, undefined, ['RouteLatency Operation=listReleases = 8']],
    [401, 'unauthorized', ['AuthRefusals Code=unauthorized = 1', 'RouteLatency Operation=listReleases = 8']],
    [403, 'forbidden', ['AuthRefusals Code=forbidden = 1', 'RouteLatency Operation=listReleases = 8']],
    [403, 'forbidden_domain', ['RouteLatency Operation=listReleases = 8']],
    [429, 'rate_limited', ['RateLimited Operation=listReleases = 1', 'RouteLatency Operation=listReleases = 8']],
  ])('for a %i %s answer writes %j, with the request id as a property only', (status, code, expected) => {
    // Act
    recordRequest({ operationId: 'listReleases', status, code, latencyMs: 8, requestId: 'Abc123=' });

    // Assess
    expect(points()).toEqual(expected);
    for (const record of records()) {
      expect(emfProblems(record)).toEqual([]);
      expect(record.requestId).toBe('Abc123=');
      expect(record._aws.CloudWatchMetrics.flatMap((directive) => directive.Dimensions.flat())).not.toContain('requestId');
    }
  });
});

describe('recordRequest: 5xx answers', () => {
  it.each([
    [500, 'internal_error', undefined, 'service'],
    [503, 'upstream_unavailable', 'service', 'service'],
    [500, 'upstream_failed', 'target', 'target'],
    [500, 'upstream_failed', 'upstream', 'upstream'],
    [503, 'upstream_unavailable', 'caller', 'caller'],
  ] as const)('counts a %i %s from origin %s under Origin=%s, per operation and summed', (status, code, origin, expected) => {
    // Act
    recordRequest({ operationId: 'capturePage', status, code, origin, latencyMs: 8 });

    // Assess
    const record = records().find((written) => 'ServerErrors' in written)!;
    expect(emfProblems(record)).toEqual([]);
    expect(record).toMatchObject({ ServerErrors: 1, Origin: expected, Operation: 'capturePage' });
    expect(record._aws.CloudWatchMetrics).toEqual([
      { Namespace: DEFAULT_METRICS_NAMESPACE, Dimensions: [['Origin', 'Operation'], ['Origin']], Metrics: [{ Name: 'ServerErrors', Unit: 'Count' }] },
    ]);
  });

  it('counts an answer given at the deadline', () => {
    recordRequest({ operationId: 'listReleases', status: 503, code: 'upstream_unavailable', deadline: true, latencyMs: 9_700 });

    expect(points()).toEqual([
      'DeadlineExceeded Operation=listReleases = 1',
      'RouteLatency Operation=listReleases = 9700',
      'ServerErrors Origin=service,Operation=listReleases = 1',
    ]);
  });
});

describe('requestMetrics, the always-on middleware', () => {
  const event = { rawPath: '/api/v1/releases', requestContext: { requestId: 'gw-id', http: { method: 'GET' } } } as unknown as LambdaEvent;
  const context = { awsRequestId: 'lambda-id', getRemainingTimeInMillis: () => 5_000 } as unknown as LambdaContext;
  /** A stand-in for the boundary: renders a thrown error as a 429 or 500 answer. */
  const boundary: MiddlewareObj<LambdaEvent, unknown, Error, LambdaContext> = {
    onError: (request) => {
      request.response = {
        statusCode: request.error instanceof RateLimitedError ? 429 : 500,
        headers: { 'X-Request-Id': 'gw-id' },
        body: '{}',
      } satisfies LambdaResult;
    },
  };

  it('times every answer of the route, success or error, under its operation id', async () => {
    // Prepare
    const ok = middy<LambdaEvent, unknown, Error, LambdaContext>()
      .use(requestMetrics({ operationId: 'listReleases', routeKey: 'GET /api/v1/releases', cors: 'public' }))
      .handler(async () => ({ statusCode: 200, headers: { 'X-Request-Id': 'gw-id' }, body: '[]' }));
    const limited = middy<LambdaEvent, unknown, Error, LambdaContext>()
      .use(requestMetrics({ operationId: 'capturePage', routeKey: 'POST /api/screenshot', cors: 'public' }))
      .use(boundary)
      .handler(async () => {
        throw new RateLimitedError({ limit: 10, windowSeconds: 60, retryAfter: 30, headers: {} });
      });

    // Act
    await ok(event, context);
    await limited(event, context);

    // Assess
    const written = records();
    expect(written).toHaveLength(2);
    for (const record of written) {
      expect(emfProblems(record)).toEqual([]);
      expect(record.requestId).toBe('gw-id');
    }
    expect(written.map((record) => [record.Operation, record.status, record.RateLimited])).toEqual([
      ['listReleases', 200, undefined],
      ['capturePage', 429, 1],
    ]);
  });
});

describe('withCaptureMetrics', () => {
  const request: ScreenshotRequest = { url: 'https://example.com', deviceType: 'desktop', colorScheme: 'light', forceRefresh: false };
  const result: ScreenshotResult = {
    png: new Uint8Array(1),
    url: 'https://example.com/',
    cached: false,
    strategy: 'local-chromium',
    deviceType: 'desktop',
    colorScheme: 'light',
  };
  const answering = (answer: () => Promise<ScreenshotResult>): ScreenshotService => ({ capture: answer });

  it('counts a capture by status and strategy, the cache hit or miss, and a truncated page', async () => {
    // Act
    await withCaptureMetrics(
      answering(async () => ({ ...result, cached: true })),
      'local-chromium',
    ).capture(request);
    await withCaptureMetrics(
      answering(async () => ({ ...result, extent: { truncated: true, capturedHeight: 16_384 } })),
      'local-chromium',
    ).capture(request);
    await withCaptureMetrics(
      answering(async () => result),
      'local-chromium',
    ).capture({ ...request, forceRefresh: true });

    // Assess
    for (const record of records()) expect(emfProblems(record)).toEqual([]);
    expect(points()).toEqual([
      'CacheHits Cache=capture = 1',
      'CacheMisses Cache=capture = 1',
      'Captures Status=200,Strategy=cache = 1',
      'Captures Status=200,Strategy=local-chromium = 1',
      'Captures Status=200,Strategy=local-chromium = 1',
      'TruncatedCaptures  = 1',
    ]);
  });

  it('counts no cache miss for a capture with cookies, which never looks the cache up', async () => {
    // Act
    await withCaptureMetrics(
      answering(async () => result),
      'local-chromium',
    ).capture({ ...request, cookies: [{ name: 'session', value: 'v' }] });

    // Assess
    expect(points()).toEqual(['Captures Status=200,Strategy=local-chromium = 1']);
  });

  it.each([
    [new UpstreamTimeoutError('slow'), '408'],
    [new InvalidRequestError('bad', 'bad'), '400'],
    [new Error('crash'), '500'],
  ])("counts a failed capture under its status and the backend's strategy, and rethrows it", async (error, status) => {
    // Act
    const capture = withCaptureMetrics(
      answering(() => Promise.reject(error)),
      'remote-cdp',
    ).capture(request);

    // Assess
    await expect(capture).rejects.toBe(error);
    expect(points()).toEqual([`Captures Status=${status},Strategy=remote-cdp = 1`]);
  });
});

describe('exportImage', () => {
  it("writes the export's bytes and time by format", async () => {
    // Prepare
    const png = await screenshotLike(64, 48);

    // Act
    const out = await exportImage(
      { maxResponseBytes: 6_000_000 },
      { bytes: png, declaredType: 'image/png', fileName: 'a.png', format: 'webp', preset: 'medium' },
    );

    // Assess
    const record = records().find((item) => item.ExportBytes !== undefined)!;
    expect(emfProblems(record)).toEqual([]);
    expect(record).toMatchObject({ Format: 'webp', ExportBytes: out.bytes.length });
    expect(record.ExportTime).toBeGreaterThan(0);
  });
});

describe('the tweet service', () => {
  it('counts a lookup of its cache as a miss, then as a hit', async () => {
    // Prepare
    const service = createTweetService({
      client: { fetchTweet: async () => ({ kind: 'found', tweet: { id_str: '1' } }) },
      settings: { cacheSeconds: 300, staleSeconds: 0 },
      now: () => 0,
    });

    // Act
    await service.getTweet('1');
    await service.getTweet('1');

    // Assess
    for (const record of records()) expect(emfProblems(record)).toEqual([]);
    expect(points()).toEqual(['CacheHits Cache=tweet = 1', 'CacheMisses Cache=tweet = 1']);
  });
});
