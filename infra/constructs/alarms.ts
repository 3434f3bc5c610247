import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

/** Every alarm looks at five-minute windows. */
export const ALARM_PERIOD = Duration.minutes(5);

/**
 * Alarms that fire on the first occurrence of something an operator must look at, all
 * notifying one topic (subscribe to it after deploying; the stack outputs its ARN).
 */
export class Alarms extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Easel alarms', enforceSSL: true });
  }

  /** Alarms when the metric reaches `threshold` (default 1) in one period; no data is healthy. */
  add(id: string, metric: IMetric, description: string, threshold = 1): Alarm {
    const alarm = new Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    return alarm;
  }
}
