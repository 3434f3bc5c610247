import { NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterAll, describe, expect, it } from 'vitest';
import { DataStores } from '#infra/constructs/data-stores.ts';
import { EaselStack } from '#infra/stack.ts';
import type { EaselStackProps } from '#infra/stack.ts';
import { newApp, removeCdkOutdirs } from '../support/cdk.ts';

afterAll(removeCdkOutdirs);

/** Unacknowledged findings of cdk-nag's AWS Solutions pack, as "severity rule path" lines. */
function findings(scope: IConstruct): string[] {
  const report = new AwsSolutionsChecks().validateScope(scope);
  return report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => `${violation.severity} ${violation.ruleName} ${resource.constructPath}`),
  );
}

/** Every acknowledgment in the tree: where it sits, which rule, why. */
function acknowledgments(scope: IConstruct): { path: string; id: string; reason: string }[] {
  return scope.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
      .map(([id, reason]) => ({ path: construct.node.path, id: id.replace(/^annotation::/i, ''), reason })),
  );
}

const configurations: [string, EaselStackProps][] = [
  ['an alarm e-mail', { alarmTarget: { email: 'ops@easel.test' } }],
  ['no alarm target', {}],
  // As `cdk synth` makes it where the CLI knows the region (and partition) but not the account, or both.
  ['a known region', { alarmTarget: { email: 'ops@easel.test' }, env: { region: 'us-east-1' } }],
  ['a known account and region', { alarmTarget: { email: 'ops@easel.test' }, env: { region: 'eu-west-1', account: '123456789012' } }],
  [
    'an existing alarm topic and internal secret',
    {
      alarmTarget: { topicArn: 'arn:aws:sns:eu-west-1:123456789012:team-alarms' },
      internalSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:easel-internal-AbCdEf',
    },
  ],
  ['an S3 Express One Zone bucket for small cached PNGs', { alarmTarget: { email: 'ops@easel.test' }, cacheZone: 'use1-az4' }],
  ['the functions that run Chromium as a container image', { alarmTarget: { email: 'ops@easel.test' }, captureImage: true }],
];

describe('cdk-nag AwsSolutionsChecks', () => {
  it.each(configurations)('finds no unacknowledged error or warning in the stack with %s', (_case, props) => {
    // Prepare
    const app = newApp();
    new EaselStack(app, 'Easel', props);

    // Act + Assess
    expect(findings(app)).toEqual([]);
  });

  it('reports what the acknowledgments do not cover: a bucket without access logs added to the stack', () => {
    // Prepare
    const app = newApp();
    const stack = new EaselStack(app, 'Easel', { alarmTarget: { email: 'ops@easel.test' } });
    new Bucket(stack, 'Stray', { enforceSSL: true });

    // Act + Assess
    expect(findings(app)).toEqual(['error AwsSolutions-S1 Easel/Stray/Resource']);
  });

  it("checks the alarms' nested stack too: reports a bucket without access logs added there", () => {
    // Prepare
    const app = newApp();
    const stack = new EaselStack(app, 'Easel', { alarmTarget: { email: 'ops@easel.test' } });
    new Bucket(stack.alarms.stack, 'Stray', { enforceSSL: true });

    // Act + Assess
    expect(findings(app)).toEqual([`error AwsSolutions-S1 ${stack.alarms.stack.node.path}/Stray/Resource`]);
  });

  it('lets the synth of a nag-checked app succeed, as cdk synth runs it', () => {
    // Prepare
    const app = newApp();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    new EaselStack(app, 'Easel', { alarmTarget: { email: 'ops@easel.test' } });

    // Act + Assess
    expect(() => app.synth()).not.toThrow();
  });

  it('stops the synth of a nag-checked app on an unacknowledged error', () => {
    // Prepare
    const app = newApp();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    const stack = new EaselStack(app, 'Easel', { alarmTarget: { email: 'ops@easel.test' } });
    new Bucket(stack, 'Stray', { enforceSSL: true });

    // Act + Assess
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
  });

  it("stops the synth of a nag-checked app on an unacknowledged error in the alarms' nested stack", () => {
    // Prepare
    const app = newApp();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    const stack = new EaselStack(app, 'Easel', { alarmTarget: { email: 'ops@easel.test' } });
    new Bucket(stack.alarms.stack, 'Stray', { enforceSSL: true });

    // Act + Assess
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
  });

  it.each([
    ['in the stack', (stack: Stack) => stack],
    ['in a nested stack, where the bucket comes in as a parameter', (stack: Stack) => new NestedStack(stack, 'Nested')],
  ])("acknowledges a role's key-prefix grant %s, so a nag-checked synth passes", (_case, scopeOf) => {
    // Prepare
    const app = newApp();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    const stack = new Stack(app, 'Grants');
    const data = new DataStores(stack, 'Data');
    const role = new Role(scopeOf(stack), 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });

    // Act
    data.grant(role, { buckets: { assets: { GetObject: ['workspaces/'] } } });

    // Assess
    expect(() => app.synth()).not.toThrow();
  });

  describe('acknowledgments', () => {
    const app = newApp();
    const stack = new EaselStack(app, 'Easel', { alarmTarget: { email: 'ops@easel.test' } });
    const acks = acknowledgments(app);

    it('sit on resources, never on the app, the stack or a group of resources', () => {
      // Assess
      const broad = acks.filter((ack) => [app.node.path, stack.node.path, stack.data.node.path].includes(ack.path));
      expect(broad).toEqual([]);
    });

    it("name the exact resource of every IAM5 wildcard: key prefixes of buckets, the source apps' secret prefix, or X-Ray's `*` on a function role's own policy", () => {
      // Prepare
      const iam5 = acks.filter((ack) => ack.id.startsWith('AwsSolutions-IAM5'));
      const xray = iam5.filter((ack) => ack.id === 'AwsSolutions-IAM5[Resource::*]');
      const secrets = iam5.filter((ack) => ack.id.includes(':secretsmanager:'));

      // Assess
      expect(iam5.length).toBeGreaterThan(xray.length);
      for (const ack of iam5.filter((item) => !xray.includes(item) && !secrets.includes(item)))
        expect(ack.id).toMatch(/^AwsSolutions-IAM5\[Resource::<Data(Assets|Cache)Bucket[0-9A-F]{8}\.Arn>\/(uploads|workspaces|captures)\/\*\]$/);
      for (const ack of xray) expect(ack.path).toMatch(/^Easel\/(\w+\/)?\w+Role\/DefaultPolicy$/);
      const secretAck = `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:${stack.sourceSecretPrefix}*]`;
      expect(secrets.map((ack) => [ack.id, ack.path]).sort()).toEqual([
        [secretAck, 'Easel/ShotsWorkerRole/DefaultPolicy'],
        [secretAck, 'Easel/TakeInReleaseFunctionRole/DefaultPolicy'],
      ]);
    });

    it('cover only the rules decided in docs/deploy.md: APIG4, IAM5 key prefixes, S1 of the log bucket, DDB3 of derived tables, SMG4', () => {
      // Assess
      expect([...new Set(acks.map((ack) => ack.id.replace(/\[.*$/, '')))].sort()).toEqual(
        ['AwsSolutions-APIG4', 'AwsSolutions-DDB3', 'AwsSolutions-IAM5', 'AwsSolutions-S1', 'AwsSolutions-SMG4'].sort(),
      );
      expect(acks.filter((ack) => ack.id === 'AwsSolutions-S1').map((ack) => ack.path)).toEqual([stack.data.accessLogs.node.path]);
      expect(
        acks
          .filter((ack) => ack.id === 'AwsSolutions-DDB3')
          .map((ack) => ack.path)
          .sort(),
      ).toEqual([stack.data.tables.cache.node.path, stack.data.tables.rate.node.path].sort());
    });

    it('give a reason a reviewer can check: a sentence or more', () => {
      // Assess
      for (const ack of acks) expect(ack.reason.length, `${ack.id} on ${ack.path}`).toBeGreaterThan(60);
    });

    it('acknowledge APIG4 once per route, each route by itself', () => {
      // Prepare
      const routes = stack.node.findAll().filter((construct) => Stack.of(construct) === stack && construct.node.defaultChild?.constructor.name === 'CfnRoute');

      // Assess
      expect(
        acks
          .filter((ack) => ack.id === 'AwsSolutions-APIG4')
          .map((ack) => ack.path)
          .sort(),
      ).toEqual(routes.map((route) => route.node.path).sort());
    });
  });
});
