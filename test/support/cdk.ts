import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { EaselStack } from '#infra/stack.ts';
import type { EaselStackProps } from '#infra/stack.ts';

// The feature flags of cdk.json, so the template under test is the one `cdk synth` produces.
const CDK_CONTEXT = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
const outdirs: string[] = [];

/**
 * A fresh app that skips bundling (asset hashes are not under test) and writes to a folder
 * {@link removeCdkOutdirs} removes.
 */
export function newApp(context: Record<string, unknown> = {}): App {
  const outdir = mkdtempSync(join(tmpdir(), 'easel-cdk-test-'));
  outdirs.push(outdir);
  return new App({ outdir, context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [], ...context } });
}

export function synthEasel(props?: EaselStackProps): { stack: EaselStack; template: Template } {
  const stack = new EaselStack(newApp(), 'Easel', props);
  return { stack, template: Template.fromStack(stack) };
}

export function logicalId(construct: IConstruct): string {
  return Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
}

/** Removes the cloud assembly folders of every app made here (call from afterAll). */
export function removeCdkOutdirs(): void {
  for (const outdir of outdirs.splice(0)) rmSync(outdir, { recursive: true, force: true });
}
