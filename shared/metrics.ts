/** Metrics as CloudWatch EMF lines written by the logger: CloudWatch Logs makes them points, so a function needs no client, call or flush. */
import { writeRecord } from '#shared/log.ts';

export type MetricUnit = 'Count' | 'Milliseconds' | 'Bytes';

/** Every metric and its dimensions, whose values are Easel's own short lists (operation ids, codes), never a URL, key or user. */
export const METRICS = {
  RouteLatency: { unit: 'Milliseconds', dimensions: ['Operation'] },
  AuthRefusals: { unit: 'Count', dimensions: ['Code'] },
  /** 429 answers of the functions' own limits (the edge's are counted from the access log). */
  RateLimited: { unit: 'Count', dimensions: ['Operation'] },
  /** One per capture request: its answer's status and what produced it (`cache` for a hit). */
  Captures: { unit: 'Count', dimensions: ['Status', 'Strategy'] },
  /** The capture cache's and the container's tweet cache's lookups. */
  CacheHits: { unit: 'Count', dimensions: ['Cache'] },
  CacheMisses: { unit: 'Count', dimensions: ['Cache'] },
  TruncatedCaptures: { unit: 'Count', dimensions: [] },
  ExportBytes: { unit: 'Bytes', dimensions: ['Format'] },
  ExportTime: { unit: 'Milliseconds', dimensions: ['Format'] },
  /** 5xx answers by whose failure they report (errors.ts, FailureOrigin); also summed per origin, which alarms read. */
  ServerErrors: { unit: 'Count', dimensions: ['Origin', 'Operation'], rollups: [['Origin']] },
  /** Answers given at the invocation's deadline (http/deadline.ts). */
  DeadlineExceeded: { unit: 'Count', dimensions: ['Operation'] },
  /** Idempotency-Key claims gone wrong: `unsaved`, `unreleased`, `taken-over` (http/idempotency.ts). */
  IdempotencyIncidents: { unit: 'Count', dimensions: ['Incident'] },
} as const satisfies Record<string, { unit: MetricUnit; dimensions: readonly string[]; rollups?: readonly (readonly string[])[] }>;

export type MetricName = keyof typeof METRICS;
type DimensionsOf<N extends MetricName> = Record<(typeof METRICS)[N]['dimensions'][number], string>;

export type MetricPoint = {
  [N in MetricName]: { name: N; value: number } & ((typeof METRICS)[N]['dimensions'] extends readonly []
    ? { dimensions?: undefined }
    : { dimensions: DimensionsOf<N> });
}[MetricName];

/** The namespace when METRICS_NAMESPACE is unset; the stack sets it to its own name, one per stage. */
export const DEFAULT_METRICS_NAMESPACE = 'Easel';
/** Dimension values are cut to this, so a bug cannot make one a long string. */
const MAX_DIMENSION_VALUE = 64;

let clock: () => number = Date.now;

/** Replaces the clock of the records' timestamps (tests). */
export function setMetricsClock(next: () => number): () => number {
  const previous = clock;
  clock = next;
  return previous;
}

/** EMF records, one per set of dimension values; `properties` (the request id) go on each for Logs Insights, never as dimensions. */
export function emitMetrics(points: readonly MetricPoint[], properties: Record<string, unknown> = {}): void {
  const groups = new Map<string, { dimensions: Record<string, string>; points: MetricPoint[] }>();
  for (const point of points) {
    if (!Number.isFinite(point.value)) continue;
    const dimensions = Object.fromEntries(Object.entries(point.dimensions ?? {}).map(([key, value]) => [key, String(value).slice(0, MAX_DIMENSION_VALUE)]));
    const key = JSON.stringify(dimensions);
    const group = groups.get(key) ?? { dimensions, points: [] };
    group.points.push(point);
    groups.set(key, group);
  }
  const namespace = process.env.METRICS_NAMESPACE || DEFAULT_METRICS_NAMESPACE;
  for (const { dimensions, points: grouped } of groups.values()) {
    // A metric named twice in one record would be two values of one point: keep them apart.
    const values: Record<string, number | number[]> = {};
    for (const point of grouped) {
      const before = values[point.name];
      values[point.name] = before === undefined ? point.value : [...(Array.isArray(before) ? before : [before]), point.value];
    }
    const directives = [...new Set(grouped.map((point) => point.name))].map((name) => {
      const metric: { unit: MetricUnit; dimensions: readonly string[]; rollups?: readonly (readonly string[])[] } = METRICS[name];
      return {
        Namespace: namespace,
        Dimensions: [metric.dimensions, ...(metric.rollups ?? [])].map((set) => [...set]),
        Metrics: [{ Name: name, Unit: metric.unit }],
      };
    });
    writeRecord({ ...properties, _aws: { Timestamp: clock(), CloudWatchMetrics: directives }, ...dimensions, ...values });
  }
}
