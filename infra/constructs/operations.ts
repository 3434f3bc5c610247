/** What an operator watches: the dashboard of Easel's metrics, the API's and the queue's, and the alarms on rates and backlogs. */
import { Aws, Duration } from 'aws-cdk-lib';
import { Dashboard, GraphWidget, MathExpression, Metric, TextWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { FailureOrigin } from '#shared/errors.ts';
import { METRICS } from '#shared/metrics.ts';
import type { MetricName } from '#shared/metrics.ts';
import { ALARM_PERIOD } from '#infra/constructs/alarms.ts';
import { pascal } from '#infra/constructs/data-stores.ts';
import type { Alarms } from '#infra/constructs/alarms.ts';

/** The alarms' thresholds, in docs/deploy.md ("Alarms"). */
export const OPERATIONS_THRESHOLDS = {
  /** Share of requests answered 429 (edge and functions), over two periods in a row. */
  tooManyRequestsPercent: 5,
  /** Share of requests answered 4xx, over three periods in a row. */
  clientErrorPercent: 25,
  /** Share of a route's requests failed by its target or upstream, over three periods in a row. */
  outsideFailurePercent: 50,
  /** Rates are not judged below this many requests in a period: a handful of 404s is no trend. */
  minimumRequests: 20,
  /** Age of the deletion queue's oldest message: its worker is stuck or failing. */
  deletionBacklogSeconds: 15 * 60,
  /** Age of the shot queue's oldest message: runs wait on the concurrency cap longer than a CI job should. */
  shotBacklogSeconds: 30 * 60,
} as const;

export interface OperationsProps {
  api: HttpApi;
  /** The stage's access log, where the edge's own 429s are seen. */
  accessLogs: ILogGroup;
  /** Namespace of the functions' EMF metrics (METRICS_NAMESPACE). */
  namespace: string;
  tables: Record<string, ITable>;
  deletionQueue: { queue: IQueue; deadLetter: IQueue };
  shotQueue: { queue: IQueue; deadLetter: IQueue };
  alarms: Alarms;
  /** The routes whose 5xx can be a target's or an upstream's failure, with their invocations. */
  outside: readonly { operationId: string; origin: Exclude<FailureOrigin, 'service'>; invocations: IMetric }[];
}

const PERIOD = ALARM_PERIOD;

/** The dashboard `<stack>-<region>` (dashboards are named per account, not per region) and the alarms on request rates, DynamoDB throttles and the queues' backlogs. */
export class Operations extends Construct {
  readonly dashboard: Dashboard;
  /** 429 answers of the whole API, counted from the access log (API Gateway has no metric of them). */
  readonly tooManyRequests: Metric;

  private readonly props: OperationsProps;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    this.props = props;
    const filter = new MetricFilter(this, 'TooManyRequestsFilter', {
      logGroup: props.accessLogs,
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: props.namespace,
      metricName: 'ApiTooManyRequests',
      metricValue: '1',
    });
    this.tooManyRequests = filter.metric({ period: PERIOD, statistic: 'Sum' });
    this.addAlarms();
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${props.namespace}-${Aws.REGION}`, defaultInterval: Duration.hours(6) });
    this.addWidgets();
  }

  private easel(name: MetricName, dimensions: Record<string, string> = {}, statistic = 'Sum'): Metric {
    return new Metric({ namespace: this.props.namespace, metricName: name, dimensionsMap: dimensions, period: PERIOD, statistic });
  }

  /** Every series of `name` by `dimensions`, whatever their values (dashboards only: alarms cannot SEARCH). */
  private search(name: MetricName, statistic: string, label: string, by: readonly string[] = METRICS[name].dimensions): MathExpression {
    const dimensions = [this.props.namespace, ...by].join(',');
    return new MathExpression({ expression: `SEARCH('{${dimensions}} MetricName="${name}"', '${statistic}', ${PERIOD.toSeconds()})`, label, period: PERIOD });
  }

  /** `part` as a percentage of the API's requests, 0 while there are too few to judge. */
  private shareOfRequests(part: IMetric, label: string): MathExpression {
    return new MathExpression({
      expression: `IF(requests >= ${OPERATIONS_THRESHOLDS.minimumRequests}, 100 * part / requests, 0)`,
      usingMetrics: { part, requests: this.props.api.metricCount({ period: PERIOD, statistic: 'Sum' }) },
      label,
      period: PERIOD,
    });
  }

  /** The highest share of the outside routes' requests that their target or upstream failed. */
  private outsideFailureShare(): MathExpression {
    const shares = Object.fromEntries(
      this.props.outside.map(({ operationId, origin, invocations }, index) => [
        `share${index}`,
        new MathExpression({
          // Ids are per alarm, not per expression.
          expression: `IF(requests${index} >= ${OPERATIONS_THRESHOLDS.minimumRequests}, 100 * FILL(failed${index}, 0) / requests${index}, 0)`,
          usingMetrics: { [`failed${index}`]: this.easel('ServerErrors', { Origin: origin, Operation: operationId }), [`requests${index}`]: invocations },
          label: `${operationId}: ${origin} failures (%)`,
          period: PERIOD,
        }),
      ]),
    );
    return new MathExpression({ expression: `MAX([${Object.keys(shares).join(', ')}])`, usingMetrics: shares, label: 'outside failures (%)', period: PERIOD });
  }

  private addAlarms(): void {
    const { alarms, api, tables, deletionQueue, shotQueue } = this.props;
    alarms.add(
      'ServiceFaults',
      this.easel('ServerErrors', { Origin: 'service' }),
      "A function answered 5xx for a fault of the service's own (an internal error, its data stores, the capture browser, a deadline): not a target's or an upstream's failure.",
    );
    alarms.add(
      'OutsideFailureRate',
      this.outsideFailureShare(),
      `At least ${OPERATIONS_THRESHOLDS.outsideFailurePercent} % of the requests of ${this.props.outside.map((route) => route.operationId).join(', ')} failed at their target or upstream for 15 minutes: the service's way out (egress, DNS) may be broken, or one caller sends failing targets.`,
      { threshold: OPERATIONS_THRESHOLDS.outsideFailurePercent, evaluationPeriods: 3, datapointsToAlarm: 3 },
    );
    alarms.add(
      'IdempotencyAnswersUnsaved',
      this.easel('IdempotencyIncidents', { Incident: 'unsaved' }),
      "A request's answer could not be stored for its Idempotency-Key: a retry with that key after the lease runs it again (the log line names the key's hash).",
    );
    alarms.add(
      'ApiTooManyRequestsRate',
      this.shareOfRequests(this.tooManyRequests, '429 share of requests (%)'),
      `At least ${OPERATIONS_THRESHOLDS.tooManyRequestsPercent} % of requests were refused with 429 (edge throttling or the functions' limits) for 10 minutes: raise the throttles or find the caller.`,
      { threshold: OPERATIONS_THRESHOLDS.tooManyRequestsPercent, evaluationPeriods: 2, datapointsToAlarm: 2 },
    );
    alarms.add(
      'ApiClientErrorRate',
      this.shareOfRequests(api.metricClientError({ period: PERIOD, statistic: 'Sum' }), '4xx share of requests (%)'),
      `At least ${OPERATIONS_THRESHOLDS.clientErrorPercent} % of requests were answered 4xx for 15 minutes: a broken client, a changed contract or a scan.`,
      { threshold: OPERATIONS_THRESHOLDS.clientErrorPercent, evaluationPeriods: 3, datapointsToAlarm: 3 },
    );
    for (const [name, table] of Object.entries(tables)) {
      alarms.add(`${pascal(name)}TableThrottles`, this.throttleEvents(table, name), `DynamoDB throttled requests to the ${name} table.`);
    }
    alarms.add(
      'DeletionQueueBacklog',
      deletionQueue.queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
      `The deletion queue's oldest message is ${OPERATIONS_THRESHOLDS.deletionBacklogSeconds / 60} minutes old or more: its worker is not keeping up or keeps failing.`,
      { threshold: OPERATIONS_THRESHOLDS.deletionBacklogSeconds },
    );
    alarms.add(
      'ShotQueueBacklog',
      shotQueue.queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
      `The shot queue's oldest message is ${OPERATIONS_THRESHOLDS.shotBacklogSeconds / 60} minutes old or more: runs outgrow the shot concurrency (shotConcurrency), or the worker keeps failing.`,
      { threshold: OPERATIONS_THRESHOLDS.shotBacklogSeconds },
    );
  }

  private throttleEvents(table: ITable, name: string): MathExpression {
    // Ids per table: one graph holds every table's expression.
    const [reads, writes] = [`reads${pascal(name)}`, `writes${pascal(name)}`];
    return new MathExpression({
      expression: `FILL(${reads}, 0) + FILL(${writes}, 0)`,
      usingMetrics: {
        [reads]: table.metric('ReadThrottleEvents', { period: PERIOD, statistic: 'Sum' }),
        [writes]: table.metric('WriteThrottleEvents', { period: PERIOD, statistic: 'Sum' }),
      },
      label: `${name} throttle events`,
      period: PERIOD,
    });
  }

  private addWidgets(): void {
    const { api, tables, deletionQueue, shotQueue } = this.props;
    const graph = (title: string, left: IMetric[], right: IMetric[] = []) => new GraphWidget({ title, left, right, width: 8, height: 6 });
    this.dashboard.addWidgets(new TextWidget({ markdown: '## API (docs/deploy.md, "Metrics and the dashboard")', width: 24, height: 1 }));
    this.dashboard.addWidgets(
      graph('Requests, 4xx, 5xx, 429', [
        api.metricCount({ period: PERIOD, statistic: 'Sum' }),
        api.metricClientError({ period: PERIOD, statistic: 'Sum' }),
        api.metricServerError({ period: PERIOD, statistic: 'Sum' }),
        this.tooManyRequests,
      ]),
      graph(
        'API latency (ms)',
        ['p50', 'p95', 'p99'].map((statistic) => api.metricLatency({ period: PERIOD, statistic })),
      ),
      graph('Route latency p95 in the function (ms)', [this.search('RouteLatency', 'p95', 'p95')]),
    );
    this.dashboard.addWidgets(
      graph(
        '5xx by origin; answers at the deadline',
        [this.search('ServerErrors', 'Sum', '5xx', ['Origin'])],
        [this.search('DeadlineExceeded', 'Sum', 'deadline')],
      ),
      graph('Outside failures, highest share of a route (%)', [this.outsideFailureShare()]),
      graph('Idempotency-Key incidents', [this.search('IdempotencyIncidents', 'Sum', 'incidents')]),
    );
    this.dashboard.addWidgets(
      graph('Auth refusals by code', [this.search('AuthRefusals', 'Sum', 'refusals')]),
      graph("429 from the functions' limits, by route", [this.search('RateLimited', 'Sum', 'rate-limited')]),
      graph(
        'Deletion queue',
        [deletionQueue.queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' })],
        [deletionQueue.deadLetter.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' })],
      ),
    );
    this.dashboard.addWidgets(new TextWidget({ markdown: '## Capture and export', width: 24, height: 1 }));
    const hits = this.easel('CacheHits', { Cache: 'capture' });
    const misses = this.easel('CacheMisses', { Cache: 'capture' });
    this.dashboard.addWidgets(
      graph('Captures by status and strategy', [this.search('Captures', 'Sum', 'captures')], [this.easel('TruncatedCaptures')]),
      graph(
        "Cache hits and misses; the capture cache's hit ratio",
        [this.search('CacheHits', 'Sum', 'hits'), this.search('CacheMisses', 'Sum', 'misses')],
        [
          new MathExpression({
            expression: 'IF(hits + misses > 0, 100 * hits / (hits + misses), 0)',
            usingMetrics: { hits, misses },
            label: 'capture hit ratio (%)',
            period: PERIOD,
          }),
        ],
      ),
      graph('Exports: bytes (avg) and time (p95, ms)', [this.search('ExportBytes', 'Average', 'bytes')], [this.search('ExportTime', 'p95', 'ms')]),
    );
    this.dashboard.addWidgets(
      graph(
        'Shot queue: waiting, oldest (s); dead letters',
        [
          shotQueue.queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
          shotQueue.queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
        ],
        [shotQueue.deadLetter.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' })],
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'DynamoDB throttle events',
        Object.entries(tables).map(([name, table]) => this.throttleEvents(table, name)),
      ),
    );
  }
}
