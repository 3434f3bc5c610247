import { Annotations, Duration, NestedStack, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export const ALARM_PERIOD = Duration.minutes(5);

/** Where alarms are delivered: at most one of them (deploy-time context `alarmEmail` / `alarmTopicArn`). */
export interface AlarmTarget {
  /** An address subscribed to the stack's alarm topic (AWS mails a confirmation link first). */
  email?: string;
  /** An existing SNS topic (e.g. a team's paging) used instead of the stack's own. */
  topicArn?: string;
}

export interface AlarmOptions {
  /** Alarm when the metric reaches this value (default 1). */
  threshold?: number;
  /** Periods looked at, and how many must breach (default 1 of 1). */
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
}

/** Id under which the missing alarm target is reported (cdk synth prints it; `--strict` makes it fatal). */
export const NO_ALARM_TARGET_WARNING = 'easel:noAlarmTarget';

/**
 * Alarms on the first occurrence of what an operator must look at, notifying one topic, which stays in the parent stack (its ARN an
 * output); the alarms go in a nested stack, as CloudFormation counts 500 resources per template (docs/deploy.md).
 */
export class Alarms extends Construct {
  readonly topic: ITopic;
  readonly stack: NestedStack;
  /** Alarm names are `<stack>-<id>`: the nested stack's own name would make them unreadable. */
  private readonly namePrefix: string;

  constructor(scope: Construct, id: string, target: AlarmTarget = {}) {
    super(scope, id);
    if (target.email !== undefined && target.topicArn !== undefined) {
      throw new Error("Give one alarm target: alarmEmail (subscribed to the stack's topic) or alarmTopicArn (an existing topic), not both");
    }
    if (target.email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(target.email)) {
      throw new Error(`alarmEmail must be an e-mail address, got ${target.email}`);
    }
    if (target.topicArn !== undefined) {
      this.topic = Topic.fromTopicArn(this, 'Topic', target.topicArn);
    } else {
      const topic = new Topic(this, 'Topic', { displayName: 'Easel alarms', enforceSSL: true });
      if (target.email !== undefined) topic.addSubscription(new EmailSubscription(target.email));
      this.topic = topic;
    }
    if (target.email === undefined && target.topicArn === undefined) {
      Annotations.of(this).addWarningV2(
        NO_ALARM_TARGET_WARNING,
        'No alarm target: alarms go to an SNS topic without subscribers, so nobody hears of them. Deploy with -c alarmEmail=ops@example.com or -c alarmTopicArn=arn:aws:sns:<region>:<account>:<topic>.',
      );
    }
    this.namePrefix = Stack.of(this).stackName;
    this.stack = new NestedStack(this, 'Stack', { description: `Easel: the alarms of ${this.namePrefix}` });
  }

  /** No data counts as healthy. */
  add(id: string, metric: IMetric, description: string, options: AlarmOptions = {}): Alarm {
    const alarm = new Alarm(this.stack, id, {
      alarmName: `${this.namePrefix}-${id}`,
      metric,
      threshold: options.threshold ?? 1,
      evaluationPeriods: options.evaluationPeriods ?? 1,
      datapointsToAlarm: options.datapointsToAlarm,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    return alarm;
  }

  /** Errors here are crashes, time-outs or out-of-memory: handlers answer their own failures. */
  watchFunction(id: string, fn: IFunction, what: string): void {
    this.add(`${id}Errors`, fn.metricErrors({ period: ALARM_PERIOD, statistic: 'Sum' }), `${what} failed an invocation (crash, time-out or out of memory).`);
    this.add(`${id}Throttles`, fn.metricThrottles({ period: ALARM_PERIOD, statistic: 'Sum' }), `${what} was throttled: Lambda had no concurrency left for it.`);
  }
}
