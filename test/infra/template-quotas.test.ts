/**
 * CloudFormation's quotas per template against every template the stack synthesizes, at 80 %: the
 * change that crosses that fails here, with room left before `cdk synth` itself fails (docs/deploy.md, "The stack's shape").
 */
import { NestedStack } from 'aws-cdk-lib';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { EaselStack } from '#infra/stack.ts';
import { newApp, removeCdkOutdirs } from '../support/cdk.ts';

afterAll(removeCdkOutdirs);

const QUOTAS = { Resources: 500, Parameters: 200, Outputs: 200 } as const;
type Section = keyof typeof QUOTAS;
const SHARE = 0.8;

// The configuration with the most resources (a subscribed e-mail, a generated internal secret), and
// each template's CDKMetadata resource, which `cdk synth` adds.
const stack = new EaselStack(newApp({ 'aws:cdk:version-reporting': true }), 'Easel', {
  alarmTarget: { email: 'ops@easel.test' },
  signIn: { emailFrom: 'Easel <no-reply@easel.test>' },
});
const stacks: Stack[] = [stack, ...stack.node.findAll().filter(NestedStack.isNestedStack)];
const sizes = stacks.map((each) => {
  const json = Template.fromStack(each).toJSON() as Partial<Record<Section, object>>;
  const size = (section: Section) => Object.keys(json[section] ?? {}).length;
  return { path: each.node.path, Resources: size('Resources'), Parameters: size('Parameters'), Outputs: size('Outputs') };
});

describe("the stack's templates", () => {
  it("are the stack's and every nested stack's, the alarms' among them", () => {
    expect(stacks[0]).toBe(stack);
    expect(stacks).toContain(stack.alarms.stack);
  });

  it.each(Object.keys(QUOTAS) as Section[])("hold %s to 80 per cent of CloudFormation's quota, each of them", (section) => {
    const ceiling = QUOTAS[section] * SHARE;
    for (const size of sizes) {
      expect(
        size[section],
        `${size.path} has ${size[section]} ${section}, above ${ceiling} (${SHARE * 100} % of CloudFormation's ${QUOTAS[section]}): ` +
          'move a group of resources into a nested stack of its own before synth fails (docs/deploy.md, "The stack\'s shape")',
      ).toBeLessThanOrEqual(ceiling);
    }
  });

  it('is a control: counts what each template holds, as cdk synth writes it', () => {
    const [parent, alarms] = [stack, stack.alarms.stack].map((each) => sizes.find((size) => size.path === each.node.path));
    for (const each of stacks) expect(Template.fromStack(each).findResources('AWS::CDK::Metadata'), each.node.path).not.toEqual({});
    expect(parent!.Resources).toBeGreaterThan(100);
    expect(alarms!.Resources).toBeGreaterThan(100);
    // One parameter per function the alarms watch, at least.
    expect(alarms!.Parameters).toBeGreaterThan(stack.routeFunctions.size);
  });
});
