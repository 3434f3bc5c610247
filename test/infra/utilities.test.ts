import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EaselFunction, PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { EaselStack } from '#infra/stack.ts';
import { ROUTES } from '#shared/routes.ts';

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
    const template = Template.fromStack(new EaselStack(newApp(false), 'Easel'));

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

describe('postExport function asset', () => {
  let asset: string;
  let architecture: string;

  beforeAll(() => {
    // Prepare + Act: the export row through the same construct the stack uses, bundled for real
    // (npm installs the row's nodeModules into the asset), alone so only one function is bundled.
    const app = newApp(true);
    const stack = new Stack(app, 'ExportAsset');
    const row = ROUTES.postExport;
    new EaselFunction(stack, 'PostExport', {
      entry: row.handler,
      memorySize: row.memory,
      timeout: row.timeout,
      environment: { PUBLIC_BASE_URL: 'https://easel.test' },
      description: 'export asset test',
      nodeModules: row.nodeModules,
    });
    const assembly = app.synth();
    const fn = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function') as Record<string, Fn>)[0]!;
    architecture = fn.Properties.Architectures?.[0] ?? 'x86_64';
    asset = join(assembly.directory, readdirSync(assembly.directory).find((name) => name.startsWith('asset.') && existsSync(join(assembly.directory, name, 'index.mjs')))!);
  }, 120_000);

  it('installs sharp with the native binary for the function architecture', () => {
    const cpu = architecture === 'arm64' ? 'arm64' : 'x64';
    const lib = join(asset, 'node_modules', '@img', `sharp-linux-${cpu}`, 'lib');
    const binary = existsSync(lib) ? readdirSync(lib).find((name) => name.startsWith(`sharp-linux-${cpu}`) && name.endsWith('.node')) : undefined;

    expect(binary, `a sharp-linux-${cpu}*.node in ${lib}`).toBeDefined();
    const header = readFileSync(join(lib, binary!)).subarray(0, 20);
    expect(header.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(header.readUInt16LE(18)).toBe(ELF_MACHINE[architecture]);
  });

  it('ships libvips beside it', () => {
    const lib = join(asset, 'node_modules', '@img', `sharp-libvips-linux-${architecture === 'arm64' ? 'arm64' : 'x64'}`, 'lib');

    expect(readdirSync(lib).some((name) => /^libvips-cpp\.so/.test(name))).toBe(true);
  });

  it('imports sharp from node_modules instead of bundling it', () => {
    const bundle = readFileSync(join(asset, 'index.mjs'), 'utf8');

    expect(bundle).toMatch(/from\s*"sharp"|import\("sharp"\)/);
  });
});
