import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { App, NestedStack, Stack } from 'aws-cdk-lib';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { EaselFunction, PROJECT_ROOT, functionProps } from '#infra/constructs/easel-function.ts';
import type { EaselFunctionProps } from '#infra/constructs/easel-function.ts';
import type { RouteRow } from '#shared/route-types.ts';
import { EaselStack } from '#infra/stack.ts';
import type { EaselStackProps } from '#infra/stack.ts';
import { SHARED_ASSETS_VARIABLE } from './shared-assets.ts';

const execFileAsync = promisify(execFile);

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

/** The stack, its {@link wholeTemplate} and its alarms' template (a nested stack's). */
export function synthEasel(props?: EaselStackProps): { stack: EaselStack; template: Template; alarms: Template } {
  const stack = new EaselStack(newApp(), 'Easel', props);
  return { stack, template: wholeTemplate(stack), alarms: Template.fromStack(stack.alarms.stack) };
}

type CfnTemplate = { Resources: Record<string, { Properties?: { Parameters?: Record<string, unknown> } }>; Outputs?: Record<string, { Value: unknown }> };

/** `value` with each object that `replace` answers for replaced by its answer. */
function rewrite(value: unknown, replace: (node: Record<string, unknown>) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, replace));
  if (value === null || typeof value !== 'object') return value;
  const node = value as Record<string, unknown>;
  return replace(node) ?? Object.fromEntries(Object.entries(node).map(([key, item]) => [key, rewrite(item, replace)]));
}

/**
 * The resources of `stack` and of its nested stacks in one template, as deployed: a nested
 * template's parameters replaced by what the stack passes, the stack's reads of a nested stack's
 * outputs by their values. For what is deployed, wherever it sits; `Template.fromStack` for one template.
 */
export function wholeTemplate(stack: Stack): Template {
  const parent = Template.fromStack(stack).toJSON() as CfnTemplate;
  const nested = new Map<string, CfnTemplate>();
  for (const child of stack.node.findAll().filter(NestedStack.isNestedStack)) {
    if (child.nestedStackParent !== stack) throw new Error(`${child.node.path}: stacks nested two deep are not merged here`);
    nested.set(stack.getLogicalId(child.nestedStackResource!), Template.fromStack(child).toJSON() as CfnTemplate);
  }
  const inParent = (value: unknown): unknown =>
    rewrite(value, (node) => {
      const [id, attribute] = (node['Fn::GetAtt'] ?? []) as [string?, string?];
      if (id === undefined || !nested.has(id) || !attribute?.startsWith('Outputs.')) return undefined;
      return inNested(id, nested.get(id)!.Outputs![attribute.slice('Outputs.'.length)]!.Value);
    });
  const inNested = (id: string, value: unknown): unknown =>
    rewrite(value, (node) => {
      const passed = parent.Resources[id]!.Properties!.Parameters ?? {};
      return typeof node.Ref === 'string' && node.Ref in passed ? inParent(passed[node.Ref]) : undefined;
    });
  const resources = inParent(parent.Resources) as CfnTemplate['Resources'];
  for (const [id, template] of nested) {
    for (const [logical, resource] of Object.entries(template.Resources)) {
      if (logical in resources) throw new Error(`${logical} is in the stack and in its nested stack ${id}`);
      resources[logical] = inNested(id, resource) as CfnTemplate['Resources'][string];
    }
  }
  return Template.fromJSON({ ...parent, Resources: resources });
}

/**
 * How the template of `nested` names `value` of its parent's template: CDK passes each value the
 * nested stack uses in as a parameter. Throws unless exactly one parameter carries it.
 */
export function parameterFor(parent: Template, nested: NestedStack, value: unknown): { Ref: string } {
  const resource = nested.nestedStackResource!;
  const id = Stack.of(resource).getLogicalId(resource);
  const parameters = (parent.toJSON().Resources[id].Properties.Parameters ?? {}) as Record<string, unknown>;
  const names = Object.keys(parameters).filter((name) => isDeepStrictEqual(parameters[name], value));
  if (names.length !== 1) throw new Error(`${nested.node.path} gets ${JSON.stringify(value)} as ${names.length} parameters, not one`);
  return { Ref: names[0]! };
}

export function logicalId(construct: IConstruct): string {
  return Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
}

/** Removes the cloud assembly folders of every app made here (call from afterAll). */
export function removeCdkOutdirs(): void {
  for (const outdir of outdirs.splice(0)) rmSync(outdir, { recursive: true, force: true });
}

/**
 * Bundles the function of `row` for real, as `cdk synth` does (esbuild, its node_modules and its
 * bundling hooks), into a fresh folder, and returns the asset Lambda would receive; the folder goes
 * with {@link removeCdkOutdirs}.
 */
export function bundleRowAsset(row: RouteRow, props: Partial<EaselFunctionProps> = {}): string {
  const outdir = mkdtempSync(join(tmpdir(), 'easel-asset-test-'));
  outdirs.push(outdir);
  // The stack around the function is this harness's own, not one that deploys: CloudFormation's
  // validation of it (seconds of WebAssembly per process) would prove nothing about the asset.
  const app = new App({ outdir, builtinCloudFormationValidation: false });
  new EaselFunction(new Stack(app, 'Bundle'), 'Fn', { ...functionProps(row, { environment: {}, description: 'bundle test' }), ...props });
  app.synth();
  const assets = readdirSync(outdir).filter((name) => name.startsWith('asset.') && existsSync(join(outdir, name, 'index.mjs')));
  if (assets.length !== 1) throw new Error(`Expected one function asset in ${outdir}, found ${assets.length}`);
  return join(outdir, assets[0]!);
}

/**
 * The asset of `row` as {@link bundleRowAsset} makes it, bundled once per run whichever file asks
 * first (the others wait for it), and copied into a folder of the caller's own, which it may change.
 */
export async function sharedRowAsset(row: RouteRow): Promise<string> {
  const run = process.env[SHARED_ASSETS_VARIABLE];
  if (!run) throw new Error(`${SHARED_ASSETS_VARIABLE} is not set: run the tests through vitest.config.ts (its globalSetup makes the folder)`);
  const shared = join(run, row.operationId);
  const [done, failed] = [join(shared, 'done'), join(shared, 'failed')];
  let claimed = true;
  try {
    mkdirSync(shared);
  } catch {
    claimed = false;
  }
  if (claimed) {
    try {
      // The bundle's own folder is this file's; the others copy the shared one.
      const asset = bundleRowAsset(row);
      cpSync(asset, join(shared, 'asset'), { recursive: true });
      writeFileSync(done, '');
      return asset;
    } catch (error) {
      writeFileSync(failed, String(error));
      throw error;
    }
  }
  // The file's hook timeout bounds the wait.
  while (!existsSync(done)) {
    if (existsSync(failed)) throw new Error(`Bundling ${row.operationId} failed in another test file: ${readFileSync(failed, 'utf8')}`);
    await sleep(250);
  }
  const own = mkdtempSync(join(tmpdir(), 'easel-asset-test-'));
  outdirs.push(own);
  cpSync(join(shared, 'asset'), own, { recursive: true });
  return own;
}

/** What every deployed function's environment holds, with stand-in values; `overrides` replaces any. */
export function deployedEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    PUBLIC_BASE_URL: 'https://api.example.com',
    WORKSPACE_TABLE: 'w',
    CACHE_TABLE: 'c',
    RATE_TABLE: 'r',
    ASSETS_BUCKET: 'ab',
    CACHE_BUCKET: 'cb',
    DELETION_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/1/q',
    MAIL_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/1/mail',
    SHOT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/1/s',
    AWS_REGION: 'us-east-1',
    LOG_LEVEL: 'silent',
    ...overrides,
  };
}

type BundledResult = { statusCode: number; headers: Record<string, string>; cookies?: string[]; body: string };

/** Node's command line that imports the bundle of `asset` and prints what its handler returns for `event`. */
function invocation(asset: string, event: unknown): string[] {
  const script = `
    const { handler } = await import(${JSON.stringify(join(asset, 'index.mjs'))});
    const result = await handler(${JSON.stringify(event)}, { awsRequestId: 'r', getRemainingTimeInMillis: () => 5000 });
    process.stdout.write(JSON.stringify(result));`;
  return ['--input-type=module', '-e', script];
}

/**
 * Calls the bundled handler of `asset` with `event` in a process of its own, as Lambda would load
 * it, with the environment `env` (see {@link deployedEnv}); this process keeps serving meanwhile,
 * so the handler can reach backends embedded here. `stderr` is what Lambda would log beside the JSON lines.
 */
export async function invokeBundled(asset: string, event: unknown, env: NodeJS.ProcessEnv): Promise<BundledResult & { stderr: string }> {
  const { stdout, stderr } = await execFileAsync(process.execPath, invocation(asset, event), { env, encoding: 'utf8' });
  return { ...(JSON.parse(stdout) as BundledResult), stderr };
}

/** {@link invokeBundled} with a GET of `path` that accepts `accept`, waiting for it. */
export function invokeBundledGet(asset: string, request: { path: string; accept: string }, env: NodeJS.ProcessEnv): BundledResult {
  const event = {
    version: '2.0',
    routeKey: `GET ${request.path}`,
    rawPath: request.path,
    rawQueryString: '',
    headers: { accept: request.accept },
    requestContext: { http: { method: 'GET', path: request.path, sourceIp: '203.0.113.1' }, requestId: 'r' },
    isBase64Encoded: false,
  };
  return JSON.parse(execFileSync(process.execPath, invocation(asset, event), { env, encoding: 'utf8' })) as BundledResult;
}
