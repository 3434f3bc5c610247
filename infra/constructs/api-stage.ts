/** The API's $default stage: throttled as a whole and per expensive route, access-logged in API Gateway's own values only. */
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { type CfnStage, type HttpApi, type HttpRoute, type HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { ROUTE_LIST } from '#shared/routes.ts';
import type { OperationId } from '#shared/routes.ts';

/** API Gateway throttling: steady requests per second, and the burst (token bucket size) above it. */
export interface Throttle {
  rate: number;
  burst: number;
}

/**
 * Far below the account's limit, so a flood is refused at the edge (429) before it costs Lambda
 * time; 2/s of 29 s captures is the most an anonymous caller should be able to keep busy.
 */
export const DEFAULT_THROTTLES = {
  stage: { rate: 50, burst: 100 },
  capture: { rate: 2, burst: 5 },
  export: { rate: 5, burst: 10 },
} as const satisfies Record<string, Throttle>;

/** Only API Gateway's own values: it does not escape variables, so caller-controlled text (path, user agent) could break the JSON or forge fields. */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTimeEpoch: '$context.requestTimeEpoch',
  sourceIp: '$context.identity.sourceIp',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integration.status',
  errorMessage: '$context.error.message',
} as const;

/** `value` when its rate is above 0 and its burst a whole number of at least 1; else an error naming `what`. */
export function checkThrottle(value: Throttle, what: string): Throttle {
  if (!(Number.isFinite(value.rate) && value.rate > 0) || !(Number.isInteger(value.burst) && value.burst >= 1)) {
    throw new Error(`${what} needs a rate above 0 (requests per second) and a whole burst of at least 1, got rate ${value.rate}, burst ${value.burst}`);
  }
  return value;
}

/** Route settings name route keys, so the stage waits for `throttledRoutes`. */
export function defaultStage(
  api: HttpApi,
  options: { accessLogs: LogGroup; throttle: Throttle; routeThrottles: Partial<Record<OperationId, Throttle>>; throttledRoutes: HttpRoute[] },
): HttpStage {
  const stage = api.addStage('DefaultStage', {
    stageName: '$default',
    autoDeploy: true,
    throttle: { rateLimit: options.throttle.rate, burstLimit: options.throttle.burst },
    accessLogSettings: {
      destination: new LogGroupLogDestination(options.accessLogs),
      format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
    },
  });
  // RouteSettings is a plain JSON map in CfnStage: CloudFormation's casing, not CDK's.
  const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
  for (const row of ROUTE_LIST) {
    const throttle = options.routeThrottles[row.operationId];
    if (throttle) routeSettings[`${row.method} ${row.path}`] = { ThrottlingRateLimit: throttle.rate, ThrottlingBurstLimit: throttle.burst };
  }
  (stage.node.defaultChild as CfnStage).routeSettings = routeSettings;
  stage.node.addDependency(...options.throttledRoutes);
  return stage;
}
