import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { App, Stack } from 'aws-cdk-lib';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { EaselFunction, PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
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
  new EaselFunction(new Stack(app, 'Bundle'), 'Fn', {
    entry: row.handler,
    memorySize: row.memory,
    timeout: row.timeout,
    environment: {},
    nodeModules: row.nodeModules,
    editorAssets: row.editorAssets,
    prerendered: row.prerendered,
    cleanCapture: row.cleanCapture,
    fonts: row.fonts,
    description: 'bundle test',
    ...props,
  });
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
