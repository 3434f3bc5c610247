import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_ALARM_TARGET_WARNING } from '#infra/constructs/alarms.ts';
import { easelPropsFromContext } from '#infra/context.ts';
import { ACCESS_LOG_FIELDS, DEFAULT_THROTTLES } from '#infra/constructs/api-stage.ts';
import { EaselStack } from '#infra/stack.ts';
import { ROUTES } from '#shared/routes.ts';
import { logicalId, newApp, removeCdkOutdirs, synthEasel } from '../support/cdk.ts';

const CAPTURE_KEY = `${ROUTES.capturePage.method} ${ROUTES.capturePage.path}`;
const EXPORT_KEY = `${ROUTES.postExport.method} ${ROUTES.postExport.path}`;

afterAll(removeCdkOutdirs);

describe('the $default stage', () => {
  let stack: EaselStack;
  let template: Template;

  beforeAll(() => {
    ({ stack, template } = synthEasel({ alarmTarget: { email: 'ops@easel.test' } }));
  });

  it('throttles the stage, and capture and export more tightly, by default', () => {
    // Assess
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: logicalId(stack.api) },
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: DEFAULT_THROTTLES.stage.rate, ThrottlingBurstLimit: DEFAULT_THROTTLES.stage.burst },
      RouteSettings: {
        [CAPTURE_KEY]: { ThrottlingRateLimit: DEFAULT_THROTTLES.capture.rate, ThrottlingBurstLimit: DEFAULT_THROTTLES.capture.burst },
        [EXPORT_KEY]: { ThrottlingRateLimit: DEFAULT_THROTTLES.export.rate, ThrottlingBurstLimit: DEFAULT_THROTTLES.export.burst },
      },
    });
  });

  it('is created after the routes its settings name, which API Gateway requires to exist', () => {
    // Prepare
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0] as { DependsOn?: string[] };
    const routeIds = (key: string) => Object.entries(template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: key } })).map(([id]) => id);

    // Assess
    expect(stage.DependsOn).toEqual(expect.arrayContaining([...routeIds(CAPTURE_KEY), ...routeIds(EXPORT_KEY)]));
  });

  it('writes a JSON access log line per request, with request id, status, latency, route and source IP, to a log group kept 90 days', () => {
    // Prepare
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0] as {
      Properties: { AccessLogSettings: { DestinationArn: unknown; Format: string } };
    };
    const { DestinationArn, Format } = stage.Properties.AccessLogSettings;
    const logGroupId = (DestinationArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    // What API Gateway writes: every $context variable replaced by its value.
    const line = JSON.parse(Format.replaceAll(/\$context\.[a-zA-Z.]+/g, '-')) as Record<string, string>;

    // Assess
    expect(DestinationArn).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
    expect(template.toJSON().Resources[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 90 } });
    expect(JSON.parse(Format)).toEqual(ACCESS_LOG_FIELDS);
    expect(Object.keys(line)).toEqual(expect.arrayContaining(['requestId', 'status', 'responseLatency', 'routeKey', 'sourceIp']));
    expect(ACCESS_LOG_FIELDS).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      responseLatency: '$context.responseLatency',
      routeKey: '$context.routeKey',
      sourceIp: '$context.identity.sourceIp',
    });
  });

  it('logs no caller-controlled text, which API Gateway would write unescaped', () => {
    // Assess
    expect(Object.values(ACCESS_LOG_FIELDS).filter((value) => /path|userAgent|header|querystring/i.test(value))).toEqual([]);
  });
});

describe('throttling from context', () => {
  it('applies the throttles given as CDK context, strings as the CLI passes them', () => {
    // Prepare
    const app = newApp({ throttleRate: '20', throttleBurst: '40', captureThrottleRate: '0.5', captureThrottleBurst: '2', exportThrottleBurst: '3' });

    // Act
    const template = Template.fromStack(new EaselStack(app, 'Easel', easelPropsFromContext(app)));

    // Assess
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
      RouteSettings: {
        [CAPTURE_KEY]: { ThrottlingRateLimit: 0.5, ThrottlingBurstLimit: 2 },
        [EXPORT_KEY]: { ThrottlingRateLimit: DEFAULT_THROTTLES.export.rate, ThrottlingBurstLimit: 3 },
      },
    });
  });

  it.each([
    ['a rate that is not a number', { throttleRate: 'fast' }, /throttleRate must be a number, got fast/],
    ['a zero rate', { captureThrottleRate: '0' }, /captureThrottle needs a rate above 0/],
    ['a fractional burst', { exportThrottleBurst: '2.5' }, /exportThrottle needs .* a whole burst of at least 1/],
  ])('refuses %s, naming the setting', (_case, context, message) => {
    // Prepare
    const app = newApp(context);

    // Act + Assess
    expect(() => new EaselStack(app, 'Easel', easelPropsFromContext(app))).toThrow(message);
  });
});

describe('alarm delivery', () => {
  const warnings = (stack: EaselStack) => Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('No alarm target'));

  it('subscribes alarmEmail to the alarm topic and warns of nothing', () => {
    // Act
    const { stack, template } = synthEasel({ alarmTarget: { email: 'ops@easel.test' } });

    // Assess
    template.resourceCountIs('AWS::SNS::Topic', 1);
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@easel.test',
      TopicArn: { Ref: logicalId(stack.alarms.topic) },
    });
    expect(warnings(stack)).toEqual([]);
  });

  it('sends every alarm to an existing topic given as alarmTopicArn, and creates none', () => {
    // Prepare
    const topicArn = 'arn:aws:sns:eu-west-1:123456789012:team-alarms';

    // Act
    const { stack, template, alarms } = synthEasel({ alarmTarget: { topicArn } });

    // Assess
    template.resourceCountIs('AWS::SNS::Topic', 0);
    alarms.resourceCountIs('AWS::SNS::Topic', 0);
    const found = Object.values(alarms.findResources('AWS::CloudWatch::Alarm')) as { Properties: { AlarmActions: unknown[] } }[];
    expect(found.length).toBeGreaterThan(0);
    for (const alarm of found) expect(alarm.Properties.AlarmActions).toEqual([topicArn]);
    expect(template.findOutputs('AlarmTopicArn')).toMatchObject({ AlarmTopicArn: { Value: topicArn } });
    expect(warnings(stack)).toEqual([]);
  });

  it('warns at synth when no alarm target is given, naming both settings', () => {
    // Act
    const { stack } = synthEasel();

    // Assess
    expect(warnings(stack)).toEqual([
      expect.objectContaining({
        entry: expect.objectContaining({ data: expect.stringMatching(/-c alarmEmail=.*-c alarmTopicArn=.*\[ack: easel:noAlarmTarget\]/) }),
      }),
    ]);
    expect(NO_ALARM_TARGET_WARNING).toBe('easel:noAlarmTarget');
  });

  it.each([
    ['both targets', { email: 'ops@easel.test', topicArn: 'arn:aws:sns:eu-west-1:123456789012:team-alarms' }, /one alarm target/],
    ['an address that is not one', { email: 'ops' }, /alarmEmail must be an e-mail address, got ops/],
  ])('refuses %s', (_case, alarmTarget, message) => {
    // Act + Assess
    expect(() => synthEasel({ alarmTarget })).toThrow(message);
  });
});
