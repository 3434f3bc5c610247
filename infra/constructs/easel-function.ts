import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** Repository root: handler entries in the route table and in QUEUES are relative to it. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

// ESM bundles have no `require`; some CommonJS dependencies call it for Node built-ins.
const REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export interface EaselFunctionProps {
  /** Module exporting `handler`, relative to the repository root (a route row's `handler`). */
  entry: string;
  /** Memory in MB. */
  memorySize: number;
  /** Timeout in seconds. */
  timeout: number;
  /** Variables every function needs (see shared/config.ts); the construct adds runtime flags. */
  environment: Record<string, string>;
  description: string;
  /** Installed into the bundle's node_modules rather than bundled (native or file-reading packages). */
  nodeModules?: readonly string[];
  /** Build the editor (editor/build.ts) into the asset's editor/ folder, beside index.mjs, where the site handlers read it. */
  editorAssets?: boolean;
}

/**
 * Bundling hooks that build the editor into the function's asset. The command runs the Node that
 * runs this synth (it strips types natively), on the build machine, like the local esbuild.
 */
const EDITOR_BUILD_HOOKS = {
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (_inputDir: string, outputDir: string) => [`"${process.execPath}" "${join(PROJECT_ROOT, 'editor', 'build.ts')}" "${join(outputDir, 'editor')}"`],
};

/**
 * One Lambda function with the project's defaults: Node 24 on x86_64, an ESM bundle built by the
 * local esbuild (no Docker) with source maps, and a log group kept for a month.
 *
 * Its role starts empty but for writing to that log group (the managed
 * AWSLambdaBasicExecutionRole would let it create and write any log group in the account);
 * routes add their grants from the route table.
 *
 * x86_64 everywhere: the screenshot function's Chromium (@sparticuz/chromium) ships x64 only,
 * and native modules bundled through `nodeModules` are installed for the build machine's
 * architecture — one architecture keeps every bundle runnable where it is deployed.
 */
export class EaselFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: EaselFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Easel: ${props.description}`,
    });
    logGroup.grantWrite(role);
    super(scope, id, {
      role,
      entry: join(PROJECT_ROOT, props.entry),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.X86_64,
      memorySize: props.memorySize,
      timeout: Duration.seconds(props.timeout),
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
      logGroup,
      bundling: {
        format: OutputFormat.ESM,
        target: 'node24',
        mainFields: ['module', 'main'],
        banner: REQUIRE_BANNER,
        minify: true,
        // Error classes name themselves from `new.target.name` (shared/errors.ts): keep names.
        keepNames: true,
        sourceMap: true,
        sourcesContent: false,
        // Ship the SDK version the tests ran against rather than whatever the runtime carries.
        bundleAwsSDK: true,
        ...(props.nodeModules?.length ? { nodeModules: [...props.nodeModules] } : {}),
        ...(props.editorAssets ? { commandHooks: EDITOR_BUILD_HOOKS } : {}),
      },
    });
  }
}
