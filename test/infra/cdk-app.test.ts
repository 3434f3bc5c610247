import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';

const LAUNCHER = join(PROJECT_ROOT, 'infra', 'cdk-app.mjs');
const PROJECT_NODE = realpathSync(join(PROJECT_ROOT, 'node_modules', 'node', 'bin', 'node'));
const CONTEXT = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { app: string; context: Record<string, unknown> };
const scratch = mkdtempSync(join(tmpdir(), 'easel-cdk-app-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every other `node` on PATH (a machine's own, as a global `cdk` would run on), with its major version. */
function otherNodes(): { path: string; major: number }[] {
  const found = new Map<string, number>();
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    const real = realpathSync(candidate);
    if (real === PROJECT_NODE || found.has(real)) continue;
    found.set(real, Number(execFileSync(real, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim()));
  }
  return [...found].map(([path, major]) => ({ path, major }));
}

// The machine's older Node where there is one, as a global `cdk` on Node 20 runs the app; and always
// the project's Node with type stripping turned off, which only a re-run of app.ts on a fresh
// Node (that does not inherit the flag) can get through — so the re-exec path is tested everywhere.
const RUNNERS = [
  ...otherNodes()
    .filter(({ major }) => major < 24)
    .map(({ path, major }) => ({ name: `the machine's Node ${major} (${path})`, command: [path] })),
  { name: 'a Node that cannot load .ts itself', command: [PROJECT_NODE, '--no-experimental-strip-types'] },
];

describe('infra/cdk-app.mjs, the app command of cdk.json', () => {
  it('is the app command', () => {
    expect(CONTEXT.app).toBe('node infra/cdk-app.mjs');
  });

  it.each(RUNNERS)(
    'synthesizes the stack when run by $name',
    ({ command }) => {
      // Prepare: what the CLI hands the app — an output folder and the context (bundling skipped).
      const outdir = mkdtempSync(join(scratch, 'out-'));
      const env = { ...process.env, CDK_OUTDIR: outdir, CDK_CONTEXT_JSON: JSON.stringify({ ...CONTEXT.context, 'aws:cdk:bundling-stacks': [] }) };

      // Act
      const result = spawnSync(command[0]!, [...command.slice(1), LAUNCHER], { env, encoding: 'utf8', cwd: PROJECT_ROOT });

      // Assess
      expect(result.stderr).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
      expect(result.status, result.stderr).toBe(0);
      const ofType = (file: string, type: string) =>
        Object.values((JSON.parse(readFileSync(join(outdir, file), 'utf8')) as { Resources: Record<string, { Type: string }> }).Resources).filter(
          (resource) => resource.Type === type,
        ).length;
      expect(ofType('Easel.template.json', 'AWS::Lambda::Function')).toBeGreaterThan(10);
      // The nested stacks, written beside it as templates that deploy as file assets: the alarms' among them.
      const nested = readdirSync(outdir).filter((file) => file.endsWith('.nested.template.json'));
      const alarms = nested.filter((file) => file.startsWith('EaselAlarmsStack'));
      expect(alarms).toHaveLength(1);
      expect(ofType(alarms[0]!, 'AWS::CloudWatch::Alarm')).toBeGreaterThan(10);
      const assets = JSON.parse(readFileSync(join(outdir, 'Easel.assets.json'), 'utf8')) as { files: Record<string, { source: unknown }> };
      for (const file of nested) expect(Object.values(assets.files).map((asset) => asset.source)).toContainEqual({ path: file, packaging: 'file' });
    },
    60_000,
  );

  it('passes the exit status of a failing app through', () => {
    // Prepare: context the app refuses (an editor origin that is not an origin).
    const env = {
      ...process.env,
      CDK_OUTDIR: mkdtempSync(join(scratch, 'out-')),
      CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [], editorOrigins: 'not a url' }),
    };

    // Act
    const result = spawnSync(RUNNERS[0]!.command[0]!, [...RUNNERS[0]!.command.slice(1), LAUNCHER], { env, encoding: 'utf8', cwd: PROJECT_ROOT });

    // Assess
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('not a url');
  }, 60_000);

  it('says in one line to run npm ci when the project has no Node of its own', () => {
    // Prepare: the launcher in a checkout without node_modules.
    const checkout = mkdtempSync(join(scratch, 'checkout-'));
    mkdirSync(join(checkout, 'infra'));
    copyFileSync(LAUNCHER, join(checkout, 'infra', 'cdk-app.mjs'));

    // Act
    const result = spawnSync(process.execPath, [join(checkout, 'infra', 'cdk-app.mjs')], { encoding: 'utf8' });

    // Assess
    expect(result.status).toBe(1);
    expect(existsSync(join(checkout, 'node_modules'))).toBe(false);
    expect(result.stderr).toBe(
      `Easel: ${join(checkout, 'node_modules', 'node', 'bin', 'node')} is missing: run \`npm ci\` in ${checkout} (without --ignore-scripts) before cdk.\n`,
    );
  });
});
