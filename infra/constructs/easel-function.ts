import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { AssetStaging, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { cheapestCpu, installEnvironment, nativeProblems, unsupportedCpu, type LinuxCpu } from '#infra/constructs/native-modules.ts';
import { PRERENDERED_FOLDER } from '#shared/docs/prerendered-files.ts';

/** Repository root: handler entries in the route table and in QUEUES are relative to it. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Builtins whose ES module facade reads every export when imported, running their lazy getters
 * (node:http's loads undici, ~30 ms): bundles take them through a CommonJS shim instead, which
 * esbuild reads property by property where the code uses them.
 */
const VIA_REQUIRE = ['http', 'https', 'crypto', 'fs', 'fs/promises', 'process'];
const builtinShims = Object.fromEntries(
  VIA_REQUIRE.flatMap((name) => {
    // An alias covers subpaths too: fs/promises needs its own, or it would become fs.cjs/promises.
    const shim = join(PROJECT_ROOT, 'infra', 'constructs', 'builtins', `${name.replace('/', '-')}.cjs`);
    return [
      [name, shim],
      [`node:${name}`, shim],
    ];
  }),
);

/**
 * The esbuild settings of every function's bundle, beside those NodejsFunction sets itself
 * (bundle, platform node, the AWS SDK bundled rather than taken from the runtime). The
 * bundle-size test and the cold-start bench build with bundleOptions(), from these.
 */
export const BUNDLE = {
  target: 'node24',
  mainFields: ['module', 'main'],
  // ESM bundles have no `require`; some CommonJS dependencies call it for Node built-ins.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  minify: true,
  // Error classes name themselves from `new.target.name` (shared/errors.ts): keep names.
  keepNames: true,
  // Source maps without the sources, beside each bundle: the logger maps a logged stack through
  // them (shared/source-maps.ts). Not NODE_OPTIONS=--enable-source-maps, which scans every
  // bundle at load, a few ms of each cold start (README, Performance).
  sourcemap: true,
  sourcesContent: false,
  // The SDK's default credential chain stops at the environment on Lambda; the rest of it is
  // ~140 KB of every bundle (shared/wiring/lambda-credentials.ts says why and what stays).
  alias: { '@aws-sdk/credential-provider-node': join(PROJECT_ROOT, 'shared', 'wiring', 'lambda-credentials.ts'), ...builtinShims },
  // Tells shared/wiring/aws-clients.ts it runs on Lambda: the SDK's chain is left out.
  define: { 'process.env.EASEL_LAMBDA_BUNDLE': '"true"' },
} as const;

/** esbuild options that build the bundle of `entry` (relative to the repository root) as the stack does. */
export function bundleOptions(entry: string, nodeModules: readonly string[] = []): BuildOptions {
  return {
    entryPoints: [join(PROJECT_ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE.target,
    mainFields: [...BUNDLE.mainFields],
    banner: { js: BUNDLE.banner },
    minify: BUNDLE.minify,
    keepNames: BUNDLE.keepNames,
    alias: { ...BUNDLE.alias },
    define: { ...BUNDLE.define },
    external: [...nodeModules],
    outfile: 'index.mjs',
  };
}

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
  /** Render the site pages it serves (shared/docs/prerender-at-bundling.ts) into the asset, so that it reads them instead of rendering at cold start. */
  prerendered?: boolean;
  /** Default arm64, or x86_64 when a package of `nodeModules` has no arm64 binary (see the class). */
  architecture?: Architecture;
}

/**
 * Bundling hooks that write what a function reads beside its bundle into its asset: the built
 * editor, the pre-rendered site pages. The commands run the Node that runs this synth (it strips
 * types natively), on the build machine, like the local esbuild.
 */
function assetHooks(props: Pick<EaselFunctionProps, 'editorAssets' | 'prerendered'>) {
  const node = (script: string, folder: string) => `"${process.execPath}" "${join(PROJECT_ROOT, script)}" "${folder}"`;
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir: string, outputDir: string) => [
      ...(props.editorAssets ? [node('editor/build.ts', join(outputDir, 'editor'))] : []),
      ...(props.prerendered ? [node('shared/docs/prerender-at-bundling.ts', join(outputDir, PRERENDERED_FOLDER))] : []),
    ],
  };
}

/**
 * One Lambda function with the project's defaults: Node 24, an ESM bundle built by the local
 * esbuild (no Docker) with source maps, and a log group kept for a month.
 *
 * arm64 by default, the cheaper architecture (about 20 % less per GB-second at list prices; the
 * bundles are plain JavaScript and sharp ships arm64 binaries); x86_64 where a native package
 * has no arm64 build: the capture function's Chromium (@sparticuz/chromium) ships x64 only (and
 * is refused on arm64). Packages in `nodeModules` are installed for Lambda's Linux on the
 * function's architecture whatever machine synthesizes, and the asset is checked for their
 * binaries: a synth that cannot fetch them (offline, not cached) fails instead of shipping a
 * function that dies at cold start.
 *
 * Its role starts empty but for writing to that log group (the managed
 * AWSLambdaBasicExecutionRole would let it create and write any log group in the account);
 * routes add their grants from the route table.
 */
export class EaselFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: EaselFunctionProps) {
    const architecture = props.architecture ?? (cheapestCpu(props.nodeModules ?? []) === 'arm64' ? Architecture.ARM_64 : Architecture.X86_64);
    const cpu: LinuxCpu = architecture === Architecture.ARM_64 ? 'arm64' : 'x64';
    const unsupported = unsupportedCpu(props.nodeModules ?? [], cpu);
    if (unsupported) throw new Error(`${scope.node.path}/${id}: ${unsupported}`);
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
      architecture,
      memorySize: props.memorySize,
      timeout: Duration.seconds(props.timeout),
      environment: props.environment,
      logGroup,
      bundling: {
        format: OutputFormat.ESM,
        target: BUNDLE.target,
        mainFields: [...BUNDLE.mainFields],
        banner: BUNDLE.banner,
        minify: BUNDLE.minify,
        keepNames: BUNDLE.keepNames,
        esbuildArgs: { '--alias': Object.entries(BUNDLE.alias).map(([from, to]) => `${from}=${to}`) },
        define: { ...BUNDLE.define },
        sourceMap: BUNDLE.sourcemap,
        sourcesContent: BUNDLE.sourcesContent,
        // Ship the SDK version the tests ran against rather than whatever the runtime carries.
        bundleAwsSDK: true,
        ...(props.nodeModules?.length ? { nodeModules: [...props.nodeModules], environment: installEnvironment(cpu) } : {}),
        ...(props.editorAssets || props.prerendered ? { commandHooks: assetHooks(props) } : {}),
      },
    });
    if (props.nodeModules?.length && Stack.of(this).bundlingRequired) this.checkNativeModules(props.nodeModules, cpu);
  }

  /** Fails the synth when the bundled asset lacks a native package's binaries for Lambda's platform. */
  private checkNativeModules(nodeModules: readonly string[], cpu: LinuxCpu): void {
    const staging = this.node.findChild('Code').node.findChild('Stage') as AssetStaging;
    const problems = nativeProblems(staging.absoluteStagedPath, nodeModules, cpu);
    if (problems.length === 0) return;
    throw new Error(
      `${this.node.path}: the bundled asset cannot run on Lambda linux-${cpu}: ${problems.join('; ')}. ` +
        `npm skipped them: run the synth once with the npm registry reachable (or \`npm cache add\` them), and use npm 10.3 or later (it honours npm_config_os, _cpu and _libc).`,
    );
  }
}
