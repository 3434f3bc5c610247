import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Architecture } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EaselFunction, PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { nativeProblems } from '#infra/constructs/native-modules.ts';
import { EaselStack } from '#infra/stack.ts';
import { QUEUES } from '#shared/resources.ts';
import { ROUTES } from '#shared/routes.ts';
import { wholeTemplate } from '../support/cdk.ts';

const CDK_CONTEXT = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
const outdirs: string[] = [];

function newApp(bundle: boolean): App {
  const outdir = mkdtempSync(join(tmpdir(), 'easel-cdk-test-'));
  outdirs.push(outdir);
  return new App({ outdir, context: { ...CDK_CONTEXT, ...(bundle ? {} : { 'aws:cdk:bundling-stacks': [] }) } });
}

afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
});

type Fn = { Properties: { Environment?: { Variables?: Record<string, unknown> }; Architectures?: string[] } };

describe('EaselStack: test-only settings', () => {
  it('never sets a test-only or local-runtime variable on any function', () => {
    // Prepare + Act
    const template = wholeTemplate(new EaselStack(newApp(false), 'Easel'));

    // Assess
    const names = Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Fn>).flatMap((fn) =>
      Object.keys(fn.Properties.Environment?.Variables ?? {}),
    );
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => /^UNSAFE_|^EASEL_LOCAL/.test(name))).toEqual([]);
  });
});

// ELF e_machine (offset 18, little-endian) of each Lambda architecture.
const ELF_MACHINE: Record<string, number> = { x86_64: 0x3e, arm64: 0xb7 };
const CPU: Record<string, string> = { x86_64: 'x64', arm64: 'arm64' };
type BundledFn = Fn & { Properties: { Code: { S3Key: string } } };

/** Runs `act` with npm configured as on another machine, as a synth on that machine would see it. */
function asIfOn(npmConfig: Record<string, string>, act: () => void): void {
  const saved = Object.fromEntries(Object.keys(npmConfig).map((name) => [name, process.env[name]]));
  Object.assign(process.env, npmConfig);
  try {
    act();
  } finally {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  }
}

function exportFunction(stack: Stack, id: string, architecture?: Architecture): EaselFunction {
  const row = ROUTES.postExport;
  return new EaselFunction(stack, id, {
    entry: row.handler,
    memorySize: row.memory,
    timeout: row.timeout,
    environment: { PUBLIC_BASE_URL: 'https://easel.test' },
    description: 'export asset test',
    nodeModules: row.nodeModules,
    architecture,
  });
}

describe('postExport function asset, synthesized on an Apple Silicon Mac', () => {
  const assets: Record<string, string> = {};

  beforeAll(() => {
    // Prepare + Act: the export row through the same construct the stack uses, bundled for real
    // (npm installs the row's nodeModules into the asset) for both Lambda architectures, while
    // npm believes it runs on darwin-arm64 — what it would install there if left alone.
    const app = newApp(true);
    const stack = new Stack(app, 'ExportAsset');
    // Assets are bundled as the functions are constructed.
    asIfOn({ npm_config_os: 'darwin', npm_config_cpu: 'arm64' }, () => {
      exportFunction(stack, 'OnX86', Architecture.X86_64);
      exportFunction(stack, 'OnArm');
    });
    const directory = app.synth().directory;
    for (const fn of Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function') as Record<string, BundledFn>)) {
      assets[fn.Properties.Architectures?.[0] ?? 'x86_64'] = join(directory, `asset.${fn.Properties.Code.S3Key.replace(/\.zip$/, '')}`);
    }
  }, 180_000);

  it('bundles one asset per architecture', () => {
    expect(Object.keys(assets).sort()).toEqual(['arm64', 'x86_64']);
  });

  it.each(['x86_64', 'arm64'])('installs sharp with the Linux binary of a %s function, not the Mac one', (architecture) => {
    const cpu = CPU[architecture]!;
    const lib = join(assets[architecture]!, 'node_modules', '@img', `sharp-linux-${cpu}`, 'lib');
    const binary = existsSync(lib) ? readdirSync(lib).find((name) => name.startsWith(`sharp-linux-${cpu}`) && name.endsWith('.node')) : undefined;

    expect(binary, `a sharp-linux-${cpu}*.node in ${lib}`).toBeDefined();
    const header = readFileSync(join(lib, binary!)).subarray(0, 20);
    expect(header.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(header.readUInt16LE(18)).toBe(ELF_MACHINE[architecture]);
    expect(readdirSync(join(assets[architecture]!, 'node_modules', '@img')).sort()).toEqual(['colour', `sharp-libvips-linux-${cpu}`, `sharp-linux-${cpu}`]);
  });

  it.each(['x86_64', 'arm64'])('ships libvips for Linux beside it on %s', (architecture) => {
    const lib = join(assets[architecture]!, 'node_modules', '@img', `sharp-libvips-linux-${CPU[architecture]}`, 'lib');

    expect(readdirSync(lib).some((name) => /^libvips-cpp\.so/.test(name))).toBe(true);
  });

  it('imports sharp from node_modules instead of bundling it', () => {
    const bundle = readFileSync(join(assets.arm64!, 'index.mjs'), 'utf8');

    expect(bundle).toMatch(/from\s*"sharp"|import\("sharp"\)/);
  });
});

describe('EaselFunction: native binaries it cannot ship', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'easel-native-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('refuses the capture function on arm64, for which Chromium has no binary', () => {
    const stack = new Stack(newApp(false), 'CaptureArm');
    const row = ROUTES.capturePage;

    expect(
      () =>
        new EaselFunction(stack, 'Capture', {
          entry: row.handler,
          memorySize: row.memory,
          timeout: row.timeout,
          environment: {},
          description: 'arm capture',
          nodeModules: row.nodeModules,
          architecture: Architecture.ARM_64,
        }),
    ).toThrow('CaptureArm/Capture: @sparticuz/chromium ships binaries for x64 only, not arm64: keep this function on x86_64.');
  });

  it('refuses @sparticuz/chromium without the zstd pack, which the bundled asset check would find missing only at a real synth', () => {
    const stack = new Stack(newApp(false), 'Workers');
    const worker = QUEUES.shots.worker;

    expect(
      () =>
        new EaselFunction(stack, 'Shots', {
          entry: worker.handler,
          memorySize: worker.memory,
          timeout: worker.timeout,
          environment: {},
          description: 'shots without the pack',
          nodeModules: worker.nodeModules,
        }),
    ).toThrow('Workers/Shots: @sparticuz/chromium ships its binary as the zstd pack alone: set chromiumPack beside it (infra/assets/chromium.ts).');
  });

  it('finds an asset holding only the Mac build of sharp incomplete', () => {
    // Prepare: what a synth on a Mac shipped before the install was told the target platform.
    for (const pkg of ['sharp-darwin-arm64', 'sharp-libvips-darwin-arm64'])
      mkdirSync(join(scratch, 'mac', 'node_modules', '@img', pkg, 'lib'), { recursive: true });
    writeFileSync(join(scratch, 'mac', 'node_modules', '@img', 'sharp-darwin-arm64', 'lib', 'sharp-darwin-arm64.node'), 'not for Linux');

    // Act + Assess
    expect(nativeProblems(join(scratch, 'mac'), ['sharp', 'valibot'], 'x64')).toEqual([
      "no @img/sharp-linux-x64 (sharp's binary for Linux x64)",
      'no @img/sharp-libvips-linux-x64 (libvips for Linux x64)',
    ]);
  });

  it('fails the synth when npm, offline, silently skips the Linux binary', () => {
    // Prepare: an npm cache with sharp and its plain dependencies but no platform package, and npm
    // offline — it then installs sharp without a binary and exits 0.
    const cache = join(scratch, 'npm-cache');
    const locked = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    const specs = ['sharp', '@img/colour', 'detect-libc', 'semver'].map((name) => `${name}@${locked.packages[`node_modules/${name}`]!.version}`);
    execFileSync('npm', ['cache', 'add', '--cache', cache, '--loglevel', 'error', ...specs], { stdio: 'ignore' });
    const app = newApp(true);

    // Act + Assess
    asIfOn({ npm_config_offline: 'true', npm_config_cache: cache }, () => {
      expect(() => exportFunction(new Stack(app, 'Offline'), 'Export')).toThrow(
        /^Offline\/Export: the bundled asset cannot run on Lambda linux-arm64: no @img\/sharp-linux-arm64 \(sharp's binary for Linux arm64\); no @img\/sharp-libvips-linux-arm64 .*npm skipped them/,
      );
    });
  }, 120_000);
});
