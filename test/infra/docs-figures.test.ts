/**
 * The figures docs/deploy.md states about the stack ("What it costs at rest") against the stack
 * `cdk synth` makes: a route, queue, table or alarm added without the docs fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { removeCdkOutdirs, synthEasel } from '../support/cdk.ts';

afterAll(removeCdkOutdirs);

const { template, alarms } = synthEasel({ alarmTarget: { email: 'ops@easel.test' } });
const count = (type: string) => Object.keys(template.findResources(type)).length;
/** The alarms live in a nested stack of their own. */
const alarmCount = Object.keys(alarms.findResources('AWS::CloudWatch::Alarm')).length;

const deploy = readFileSync(join(PROJECT_ROOT, 'docs/deploy.md'), 'utf8');
const costs = deploy.split('## What it costs at rest')[1]!.split('\n## ')[0]!;
/** The first number `pattern` captures in the cost section. */
const stated = (pattern: RegExp) => {
  const match = pattern.exec(costs);
  expect(match, String(pattern)).not.toBeNull();
  return Number(match![1]);
};
const ALARM_PRICE = 0.1;

describe('docs/deploy.md, "What it costs at rest"', () => {
  it('counts the alarms, the functions they watch and the tables, as the stack has them', () => {
    expect({
      alarms: stated(/\| (\d+) CloudWatch alarms/),
      functions: stated(/2 per function × (\d+) functions/),
      alarmedTables: stated(/(\d+) tables' throttles/),
      tables: stated(/\| (\d+) on-demand DynamoDB tables/),
      buckets: stated(/\| (\d+) S3 buckets/),
    }).toEqual({
      alarms: alarmCount,
      functions: count('AWS::Lambda::Function'),
      alarmedTables: count('AWS::DynamoDB::Table'),
      tables: count('AWS::DynamoDB::Table'),
      buckets: count('AWS::S3::Bucket'),
    });
  });

  it("prices the alarms at their count, and the month's total at what the rows add up to", () => {
    expect(alarmCount).toBeGreaterThan(0);
    expect(stated(/CloudWatch alarms [^|]*\| \$(\d+\.\d\d)/)).toBeCloseTo(alarmCount * ALARM_PRICE, 2);
    const fixed = [...costs.matchAll(/\| \$(\d+\.\d\d)\s*\|/g)].reduce((sum, [, price]) => sum + Number(price), 0);
    expect(stated(/About \$(\d+) a month/)).toBe(Math.round(fixed));
  });
});
