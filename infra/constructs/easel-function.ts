import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import type { BuildOptions } from 'esbuild';
import { type AssetStaging, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { CHROMIUM_PACK_FOLDER } from '#infra/assets/chromium.ts';
import { FONTS_MOUNT } from '#infra/assets/fonts.ts';
import { FontsLayer } from '#infra/constructs/fonts-layer.ts';
import { cheapestCpu, installEnvironment, nativeProblems, unsupportedCpu, type LinuxCpu } from '#infra/constructs/native-modules.ts';
import { LITERAL_KEY_PACKAGES, literalKeysCopy } from '#infra/constructs/sdk-literal-keys.ts';
import { sideEffectFreeCopy, sideEffectFreePackages } from '#infra/constructs/side-effect-free.ts';
import { writeXRayPackage } from '#infra/assets/xray.ts';
import { PRERENDERED_FOLDER } from '#shared/docs/prerendered-files.ts';
import type { RouteRow } from '#shared/route-types.ts';

/** Repository root: handler entries in the route table and in QUEUES are relative to it. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Builtins whose ES facade runs every lazy getter on import (node:http's loads undici): bundles reach them through CommonJS shims. */
const VIA_REQUIRE = ['http', 'https', 'crypto', 'fs', 'fs/promises', 'process'];
const builtinShims = Object.fromEntries(
  VIA_REQUIRE.flatMap((name) => {
    // An alias covers subpaths, so fs/promises needs its own or it becomes fs.cjs/promises.
    const shim = join(PROJECT_ROOT, 'infra', 'constructs', 'builtins', `${name.replace('/', '-')}.cjs`);
    return [
      [name, shim],
      [`node:${name}`, shim],
    ];
  }),
);

/** esbuild settings of every bundle beside NodejsFunction's own; tests and bench build with them too. */
export const BUNDLE = {
  target: 'node24',
  mainFields: ['module', 'main'],
  // ESM has no `require`, which some CommonJS dependencies call; an ES import of node:module would cost ≈ 1 ms.
  banner: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);",
  minify: true,
  // Only bundles with a package that reads class names keep them (entryNeeds()).
  keepNames: false,
  // The logger maps stacks itself: --enable-source-maps would scan every bundle at each cold start.
  sourcemap: true,
  sourcesContent: false,
  // On Lambda the credential chain stops at the environment (shared/wiring/lambda-credentials.ts).
  alias: { '@aws-sdk/credential-provider-node': join(PROJECT_ROOT, 'shared', 'wiring', 'lambda-credentials.ts'), ...builtinShims },
  // Imported on a sampled invocation only, from its own minified file beside the bundle (xrayPackage()).
  external: ['aws-xray-sdk-core'],
  // Tells shared/wiring/aws-clients.ts it runs on Lambda.
  define: { 'process.env.EASEL_LAMBDA_BUNDLE': '"true"' },
} as const;

/** SDK packages none of whose operations streams events. */
const WITHOUT_EVENT_STREAMS = new Set([
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/lib-dynamodb',
  '@aws-sdk/util-dynamodb',
  '@aws-sdk/client-sqs',
  '@aws-sdk/client-secrets-manager',
  '@aws-sdk/s3-request-presigner',
]);
/** SDK packages with operations that stream events, and how code names them. */
const EVENT_STREAM_OPERATIONS: Record<string, RegExp> = { '@aws-sdk/client-s3': /\bSelectObjectContent/ };
/** Packages that read class names at run time (puppeteer's errors name themselves from their constructor). */
const READS_CLASS_NAMES = new Set(['puppeteer-core']);
const EVENT_STREAMS_STUB = join(PROJECT_ROOT, 'infra', 'constructs', 'no-event-streams.ts');

interface EntryNeeds {
  /** An SDK operation the code names may stream events. */
  eventStreams: boolean;
  /** A package it imports reads class names, so minifying must keep them. */
  keepNames: boolean;
  /** It traces AWS calls, so the X-Ray SDK goes beside the bundle (infra/assets/xray.ts). */
  xray: boolean;
}
const needsByEntry = new Map<string, EntryNeeds>();

const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * What `entry`'s own code asks of its bundle: event streams and kept names cost every cold start, so
 * only code that needs them gets them (docs/dependencies.md, "The AWS SDK, made light").
 */
function entryNeeds(entry: string): EntryNeeds {
  let needs = needsByEntry.get(entry);
  if (needs === undefined) {
    const { metafile } = buildSync({
      absWorkingDir: PROJECT_ROOT,
      entryPoints: [join(PROJECT_ROOT, entry)],
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const uses = Object.entries(metafile.inputs).flatMap(([file, input]) =>
      input.imports.filter((imported) => imported.external).map((imported) => ({ file, name: packageOf(imported.path) })),
    );
    const streams = ({ file, name }: { file: string; name: string }) => {
      if (!/^@(aws-sdk|smithy)\//.test(name) || WITHOUT_EVENT_STREAMS.has(name)) return false;
      const operations = EVENT_STREAM_OPERATIONS[name];
      return operations === undefined || operations.test(readFileSync(join(PROJECT_ROOT, file), 'utf8'));
    };
    needs = {
      eventStreams: uses.some(streams),
      keepNames: uses.some(({ name }) => READS_CLASS_NAMES.has(name)),
      xray: 'shared/aws/tracing.ts' in metafile.inputs,
    };
    needsByEntry.set(entry, needs);
  }
  return needs;
}

let copyAliases: Record<string, string> | undefined;

/**
 * BUNDLE.alias, the copies of packages whose unused modules esbuild can then leave out (the SDK clients'
 * schemas, the packages marked side-effect free), and the SDK's event streams left out where `entry` cannot reach them.
 */
function aliasOf(entry: string): Record<string, string> {
  copyAliases ??= {
    ...Object.fromEntries(LITERAL_KEY_PACKAGES.map((name) => [name, literalKeysCopy(PROJECT_ROOT, name)])),
    ...Object.fromEntries(sideEffectFreePackages(PROJECT_ROOT).map((pkg) => [pkg.name, sideEffectFreeCopy(PROJECT_ROOT, pkg)])),
  };
  const alias = { ...BUNDLE.alias, ...copyAliases };
  return entryNeeds(entry).eventStreams ? alias : { ...alias, '@smithy/core/event-streams': EVENT_STREAMS_STUB };
}

/** esbuild options that build `entry` (relative to the repository root) as the stack does. */
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
    keepNames: entryNeeds(entry).keepNames,
    alias: aliasOf(entry),
    define: { ...BUNDLE.define },
    external: [...nodeModules, ...BUNDLE.external],
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
  /** Variables every function needs (shared/config.ts). */
  environment: Record<string, string>;
  description: string;
  /** Installed into the bundle's node_modules rather than bundled (native or file-reading packages). */
  nodeModules?: readonly string[];
  /** Build the editor into the asset's editor/ folder, where the site handlers read it. */
  editorAssets?: boolean;
  /** Pre-render the site pages it serves into the asset, so cold starts do not render them. */
  prerendered?: boolean;
  /** Write the ad engine and autoconsent's script beside the bundle, for clean captures. */
  cleanCapture?: boolean;
  /** Mount the capture fonts' layer and point fontconfig at it (infra/assets/fonts.ts). */
  fonts?: boolean;
  /** Ship Chromium packed with zstd beside the bundle, without @sparticuz/chromium's brotli files (infra/assets/chromium.ts). */
  chromiumPack?: boolean;
  /** Default arm64, or x86_64 when a package of `nodeModules` has no arm64 binary. */
  architecture?: Architecture;
}

/** What a route row or a queue's worker says of its function. */
export type FunctionDef = Pick<
  RouteRow,
  'handler' | 'memory' | 'timeout' | 'nodeModules' | 'editorAssets' | 'prerendered' | 'cleanCapture' | 'fonts' | 'chromiumPack'
>;

export function functionProps(def: FunctionDef, rest: Pick<EaselFunctionProps, 'environment' | 'description'>): EaselFunctionProps {
  const { handler, memory, timeout, nodeModules, editorAssets, prerendered, cleanCapture, fonts, chromiumPack } = def;
  return { entry: handler, memorySize: memory, timeout, nodeModules, editorAssets, prerendered, cleanCapture, fonts, chromiumPack, ...rest };
}

let xrayFolder: string | undefined;

/** The X-Ray SDK's package folder, built once per synth under node_modules/.cache (infra/assets/xray.ts). */
export function xrayPackage(): string {
  const settings = { target: BUNDLE.target, mainFields: [...BUNDLE.mainFields], banner: { js: BUNDLE.banner }, minify: BUNDLE.minify };
  xrayFolder ??= writeXRayPackage(join(PROJECT_ROOT, 'node_modules', '.cache', 'easel-xray'), settings);
  return xrayFolder;
}

/** Bundling hooks that add the built editor, pre-rendered pages, clean-capture files, Chromium's pack and the X-Ray SDK, run by this synth's Node (it strips types). */
function assetHooks(props: Pick<EaselFunctionProps, 'editorAssets' | 'prerendered' | 'cleanCapture' | 'chromiumPack'> & { xray: boolean }) {
  const node = (script: string, folder: string) => `"${process.execPath}" "${join(PROJECT_ROOT, script)}" "${folder}"`;
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir: string, outputDir: string) => [
      ...(props.editorAssets ? [node('editor/build.ts', join(outputDir, 'editor'))] : []),
      ...(props.prerendered ? [node('shared/docs/prerender-at-bundling.ts', join(outputDir, PRERENDERED_FOLDER))] : []),
      ...(props.cleanCapture ? [node('infra/assets/clean-capture.ts', outputDir)] : []),
      // The package stays for its code; its 70 MB of brotli files would only be dead weight beside the pack.
      ...(props.chromiumPack
        ? [node('infra/assets/chromium.ts', outputDir), `rm -rf "${join(outputDir, 'node_modules', '@sparticuz', 'chromium', 'bin')}"`]
        : []),
      ...(props.xray ? [`mkdir -p "${join(outputDir, 'node_modules')}" && cp -R "${xrayPackage()}" "${join(outputDir, 'node_modules')}/"`] : []),
    ],
  };
}

/** Why each role's X-Ray statement names every resource. */
export const X_RAY_WILDCARD_REASON =
  'xray:PutTraceSegments and xray:PutTelemetryRecords, which CDK grants for Tracing.ACTIVE, support no resource-level permissions (IAM lists them with resource *); the statement holds only these two actions.';

/**
 * What every Easel function shares, zip or image: a role of its own that writes only its own log group
 * (routes add grants), its size and environment, active tracing.
 */
export function sharedFunctionProps(scope: Construct, id: string, props: Pick<EaselFunctionProps, 'description' | 'memorySize' | 'timeout' | 'environment'>) {
  const logGroup = new LogGroup(scope, `${id}Logs`, {
    retention: RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const role = new Role(scope, `${id}Role`, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: `Easel: ${props.description}`,
  });
  logGroup.grantWrite(role);
  return {
    role,
    logGroup,
    description: props.description,
    memorySize: props.memorySize,
    timeout: Duration.seconds(props.timeout),
    environment: props.environment,
    // The runtime's own segments (initialization, invocation, overhead); shared/aws/tracing.ts adds the AWS calls.
    tracing: Tracing.ACTIVE,
  };
}

/** CDK's grant for active tracing, on the role of {@link sharedFunctionProps}: X-Ray's write actions take no resource but `*`. */
export function acknowledgeXRay(role: Role): void {
  Validations.of(role.node.findChild('DefaultPolicy')).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: X_RAY_WILDCARD_REASON });
}

/**
 * One zip function with the project's defaults, on arm64 unless a native package lacks it (a synth
 * that cannot fetch its binaries fails).
 */
export class EaselFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: EaselFunctionProps) {
    const architecture = props.architecture ?? (cheapestCpu(props.nodeModules ?? []) === 'arm64' ? Architecture.ARM_64 : Architecture.X86_64);
    const cpu: LinuxCpu = architecture === Architecture.ARM_64 ? 'arm64' : 'x64';
    const unsupported = unsupportedCpu(props.nodeModules ?? [], cpu);
    if (unsupported) throw new Error(`${scope.node.path}/${id}: ${unsupported}`);
    // Checked here too, so a synth that skips bundling (template tests) refuses what the bundled asset check would.
    if (props.nodeModules?.includes('@sparticuz/chromium') && !props.chromiumPack) {
      throw new Error(
        `${scope.node.path}/${id}: @sparticuz/chromium ships its binary as the zstd pack alone: set chromiumPack beside it (infra/assets/chromium.ts).`,
      );
    }
    const shared = sharedFunctionProps(scope, id, props);
    // As the bench and tests build; a synth that skips bundling (template tests) never reads the code.
    const built = Stack.of(scope).bundlingRequired ? bundleOptions(props.entry, props.nodeModules) : undefined;
    const alias = built?.alias ?? BUNDLE.alias;
    const keepNames = built?.keepNames ?? BUNDLE.keepNames;
    const xray = built !== undefined && entryNeeds(props.entry).xray;
    super(scope, id, {
      ...shared,
      entry: join(PROJECT_ROOT, props.entry),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture,
      bundling: {
        format: OutputFormat.ESM,
        target: BUNDLE.target,
        mainFields: [...BUNDLE.mainFields],
        banner: BUNDLE.banner,
        minify: BUNDLE.minify,
        keepNames,
        esbuildArgs: { '--alias': Object.entries(alias).map(([from, to]) => `${from}=${to}`) },
        define: { ...BUNDLE.define },
        sourceMap: BUNDLE.sourcemap,
        sourcesContent: BUNDLE.sourcesContent,
        // The SDK version the tests ran against, not the runtime's.
        bundleAwsSDK: true,
        ...(props.nodeModules?.length ? { nodeModules: [...props.nodeModules], environment: installEnvironment(cpu) } : {}),
        externalModules: [...BUNDLE.external],
        ...(props.editorAssets || props.prerendered || props.cleanCapture || props.chromiumPack || xray
          ? { commandHooks: assetHooks({ ...props, xray }) }
          : {}),
      },
    });
    acknowledgeXRay(shared.role);
    if (props.nodeModules?.length && Stack.of(this).bundlingRequired) this.checkNativeModules(props.nodeModules, cpu);
    // Where the bundle is: Lambda unpacks the function's asset into /var/task.
    if (props.chromiumPack) this.addEnvironment('CHROMIUM_PACK', join('/var/task', CHROMIUM_PACK_FOLDER));
    if (props.fonts) {
      this.addLayers(FontsLayer.of(this));
      // Its fonts.conf instead of @sparticuz/chromium's, which sets FONTCONFIG_PATH only when unset.
      this.addEnvironment('FONTCONFIG_PATH', FONTS_MOUNT);
    }
  }

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
