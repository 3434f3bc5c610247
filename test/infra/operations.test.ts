import { afterAll, describe, expect, it } from 'vitest';
import { X_RAY_WILDCARD_REASON } from '#infra/constructs/easel-function.ts';
import { OPERATIONS_THRESHOLDS } from '#infra/constructs/operations.ts';
import { OUTSIDE_FAILURES } from '#infra/stack.ts';
import type { OperationId } from '#shared/routes.ts';
import { METRICS } from '#shared/metrics.ts';
import { TABLES } from '#shared/resources.ts';
import { logicalId, parameterFor, removeCdkOutdirs, synthEasel } from '../support/cdk.ts';

afterAll(removeCdkOutdirs);

interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
}
interface Statement {
  Action: string | string[];
  Resource: unknown;
}

// One synth for the file: it is the slow part.
const { stack, template, alarms } = synthEasel({ alarmTarget: { email: 'ops@easel.test' } });
const resources = Object.entries(template.toJSON().Resources as Record<string, Resource>);
const ofType = (type: string) => resources.filter(([, resource]) => resource.Type === type);
const alarmResources = Object.values(alarms.findResources('AWS::CloudWatch::Alarm')) as Resource[];
const alarmNamed = (id: string) => {
  const found = alarmResources.filter((alarm) => alarm.Properties.AlarmName === `Easel-${id}`);
  expect(found, id).toHaveLength(1);
  return found[0]!.Properties;
};
/** A reference of the stack's template as the alarms' template receives it. */
const passed = (value: unknown) => JSON.stringify(parameterFor(template, stack.alarms.stack, value));
const topic = parameterFor(template, stack.alarms.stack, { Ref: logicalId(stack.alarms.topic) });
/** The dashboard's body with CloudFormation's references left as `<ref>`. */
const dashboardBody = (() => {
  const [[, dashboard]] = ofType('AWS::CloudWatch::Dashboard') as [[string, Resource]];
  const parts = (dashboard.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
  return parts.map((part) => (typeof part === 'string' ? part : '<ref>')).join('');
})();

describe('traces', () => {
  it('turns active tracing on for every function', () => {
    const functions = ofType('AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(30);
    for (const [id, fn] of functions) expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
  });

  it("grants every role X-Ray's two write actions, the only statement on resource *", () => {
    const policies = ofType('AWS::IAM::Policy');
    const wildcard = policies.flatMap(([, policy]) =>
      (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement.filter((statement) => statement.Resource === '*'),
    );
    expect(wildcard).toHaveLength(ofType('AWS::Lambda::Function').length);
    for (const statement of wildcard) expect([statement.Action].flat().sort()).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    expect(X_RAY_WILDCARD_REASON).toMatch(/no resource-level permissions/);
  });
});

describe('metrics and the dashboard', () => {
  it("gives every function the stack's name as its metrics namespace", () => {
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.METRICS_NAMESPACE, id).toBe('Easel');
    }
  });

  it("counts the API's 429s, the edge's included, from the access log", () => {
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: logicalId(stack.apiAccessLogs) },
      FilterPattern: '{ $.status = "429" }',
      MetricTransformations: [{ MetricNamespace: 'Easel', MetricName: 'ApiTooManyRequests', MetricValue: '1' }],
    });
  });

  it("shows every metric the functions write, the API's requests, 4xx, 5xx, 429 and latency, and the deletion queue's age", () => {
    for (const name of Object.keys(METRICS)) expect(dashboardBody, name).toMatch(new RegExp(`\\b${name}\\b`));
    for (const name of ['"Count"', '"4xx"', '"5xx"', '"Latency"', '"ApiTooManyRequests"', '"ApproximateAgeOfOldestMessage"', '"ReadThrottleEvents"'])
      expect(dashboardBody).toContain(name);
  });

  it('is a control: a metric nobody writes is not on the dashboard', () => {
    expect(dashboardBody).not.toMatch(/\bCapturesTotal\b/);
  });
});

describe('alarms on 5xx answers', () => {
  it("alarm at the first 5xx of the service's own, from the functions' ServerErrors summed per origin", () => {
    expect(alarmNamed('ServiceFaults')).toMatchObject({
      Namespace: 'Easel',
      MetricName: 'ServerErrors',
      Dimensions: [{ Name: 'Origin', Value: 'service' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      EvaluationPeriods: 1,
      AlarmActions: [topic],
    });
    expect(METRICS.ServerErrors.rollups).toEqual([['Origin']]);
  });

  it("watch no 5xx of API Gateway's, which counts a capture target's failure as the service's", () => {
    const watched = alarmResources.map((alarm) => JSON.stringify(alarm.Properties));
    expect(watched.length).toBeGreaterThan(0);
    expect(watched.filter((alarm) => alarm.includes('"5xx"'))).toEqual([]);
  });

  it('alarm when a target or an upstream fails half the requests of its route for three periods', () => {
    const alarm = alarmNamed('OutsideFailureRate');
    expect(alarm).toMatchObject({ Threshold: OPERATIONS_THRESHOLDS.outsideFailurePercent, EvaluationPeriods: 3, DatapointsToAlarm: 3 });
    const metrics = JSON.stringify(alarm.Metrics);
    expect(metrics).toContain('MAX([share0, share1, share2])');
    expect(metrics).toContain(`IF(requests0 >= ${OPERATIONS_THRESHOLDS.minimumRequests}, 100 * FILL(failed0, 0) / requests0, 0)`);
    for (const [operationId, origin] of Object.entries(OUTSIDE_FAILURES)) {
      expect(metrics).toContain(`{"Name":"Operation","Value":"${operationId}"},{"Name":"Origin","Value":"${origin}"}`);
      expect(metrics).toContain(passed({ Ref: logicalId(stack.routeFunctions.get(operationId as OperationId)!) }));
    }
  });

  it('alarm when an Idempotency-Key answer could not be stored', () => {
    expect(alarmNamed('IdempotencyAnswersUnsaved')).toMatchObject({
      MetricName: 'IdempotencyIncidents',
      Dimensions: [{ Name: 'Incident', Value: 'unsaved' }],
      Threshold: 1,
    });
  });
});

describe('alarms added for operations', () => {
  it('alarm on the share of 429 and of 4xx answers, judged only above a minimum of requests', () => {
    const tooMany = alarmNamed('ApiTooManyRequestsRate');
    expect(tooMany).toMatchObject({
      Threshold: OPERATIONS_THRESHOLDS.tooManyRequestsPercent,
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(JSON.stringify(tooMany.Metrics)).toContain(`IF(requests >= ${OPERATIONS_THRESHOLDS.minimumRequests}, 100 * part / requests, 0)`);
    expect(JSON.stringify(tooMany.Metrics)).toContain('ApiTooManyRequests');
    const clientErrors = alarmNamed('ApiClientErrorRate');
    expect(clientErrors).toMatchObject({ Threshold: OPERATIONS_THRESHOLDS.clientErrorPercent, EvaluationPeriods: 3 });
    expect(JSON.stringify(clientErrors.Metrics)).toContain('"4xx"');
    expect(JSON.stringify(clientErrors.Metrics)).toContain(passed({ Ref: logicalId(stack.api) }));
  });

  it('alarm on DynamoDB throttles of every table', () => {
    for (const name of Object.keys(TABLES)) {
      const alarm = alarmNamed(`${name.charAt(0).toUpperCase()}${name.slice(1)}TableThrottles`);
      expect(JSON.stringify(alarm.Metrics)).toMatch(/ReadThrottleEvents.*WriteThrottleEvents/);
      expect(JSON.stringify(alarm.Metrics)).toContain(passed({ Ref: logicalId(stack.data.tables[name as keyof typeof TABLES]) }));
    }
  });

  it("alarm when the deletion queue's oldest message is too old", () => {
    expect(alarmNamed('DeletionQueueBacklog')).toMatchObject({
      MetricName: 'ApproximateAgeOfOldestMessage',
      Namespace: 'AWS/SQS',
      Statistic: 'Maximum',
      Threshold: OPERATIONS_THRESHOLDS.deletionBacklogSeconds,
      Dimensions: [
        { Name: 'QueueName', Value: parameterFor(template, stack.alarms.stack, { 'Fn::GetAtt': [logicalId(stack.data.queues.deletion.queue), 'QueueName'] }) },
      ],
      AlarmActions: [topic],
    });
  });

  it("alarm when the shot queue's oldest message is too old", () => {
    expect(alarmNamed('ShotQueueBacklog')).toMatchObject({
      MetricName: 'ApproximateAgeOfOldestMessage',
      Namespace: 'AWS/SQS',
      Statistic: 'Maximum',
      Threshold: OPERATIONS_THRESHOLDS.shotBacklogSeconds,
      Dimensions: [
        { Name: 'QueueName', Value: parameterFor(template, stack.alarms.stack, { 'Fn::GetAtt': [logicalId(stack.data.queues.shots.queue), 'QueueName'] }) },
      ],
      AlarmActions: [expect.anything()],
    });
  });
});
