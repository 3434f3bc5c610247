/** The per-request metrics of every route (shared/metrics.ts), from what the boundary answered. */
import { DeadlineExceededError, HttpError, type FailureOrigin } from '#shared/errors.ts';
import type { AlwaysOn } from '#shared/http/middleware-types.ts';
import { requestIdOf } from '#shared/http/request-id.ts';
import { emitMetrics } from '#shared/metrics.ts';
import type { MetricPoint } from '#shared/metrics.ts';
import type { LambdaContext, LambdaEvent, LambdaResult } from '#shared/route-types.ts';

export interface RequestOutcome {
  /** The row's operation id (the fallback's `fallback`): a short fixed list, so a fine dimension. */
  operationId: string;
  status: number;
  code?: string;
  /** Whose failure a 5xx answer reports; the service's when unknown. */
  origin?: FailureOrigin;
  deadline?: boolean;
  latencyMs: number;
  /** A property of the record, for Logs Insights; never a dimension. */
  requestId?: string;
}

/** Route latency for every answer; auth refusals (401, or 403 `forbidden`), 429s, 5xx and deadlines are counted too. */
export function recordRequest(outcome: RequestOutcome): void {
  const Operation = outcome.operationId;
  const points: MetricPoint[] = [{ name: 'RouteLatency', value: outcome.latencyMs, dimensions: { Operation } }];
  if (outcome.status === 401 || (outcome.status === 403 && outcome.code === 'forbidden')) {
    points.push({ name: 'AuthRefusals', value: 1, dimensions: { Code: outcome.code ?? String(outcome.status) } });
  }
  if (outcome.status === 429) points.push({ name: 'RateLimited', value: 1, dimensions: { Operation } });
  if (outcome.status >= 500) points.push({ name: 'ServerErrors', value: 1, dimensions: { Origin: outcome.origin ?? 'service', Operation } });
  if (outcome.deadline) points.push({ name: 'DeadlineExceeded', value: 1, dimensions: { Operation } });
  emitMetrics(points, { requestId: outcome.requestId, status: outcome.status });
}

interface MetricsRequest {
  event: LambdaEvent;
  context: LambdaContext;
  response: unknown;
  error?: unknown;
  internal: object;
}

/** {@link recordRequest} for every answer as rendered, envelopes included; its time covers every other middleware. */
export const requestMetrics: AlwaysOn = (meta) => {
  const record = (request: MetricsRequest) => {
    const result = request.response as LambdaResult | undefined;
    const startedAt = (request.internal as { metricsStartedAt?: number }).metricsStartedAt ?? performance.now();
    const { error } = request;
    recordRequest({
      operationId: meta.operationId,
      status: result?.statusCode ?? 500,
      code: (error as { code?: unknown } | undefined)?.code as string | undefined,
      origin: error instanceof HttpError ? error.origin : undefined,
      deadline: error instanceof DeadlineExceededError,
      latencyMs: Math.round((performance.now() - startedAt) * 10) / 10,
      requestId: requestIdOf(request.event, request.context),
    });
  };
  return {
    before: (request) => {
      (request.internal as { metricsStartedAt?: number }).metricsStartedAt = performance.now();
    },
    after: record,
    onError: record,
  };
};
