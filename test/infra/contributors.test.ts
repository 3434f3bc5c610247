import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, matchesGlob, relative } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { BASE_STACK_NAME, stackNameFromContext } from '#infra/context.ts';
import { QUEUES } from '#shared/resources.ts';
import { FALLBACK, ROUTE_LIST } from '#shared/routes.ts';
import { newApp, removeCdkOutdirs } from '../support/cdk.ts';

const CDK_JSON = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
  watch?: { include: string[]; exclude: string[] };
  context: Record<string, unknown>;
};
const scratch = mkdtempSync(join(tmpdir(), 'easel-contributors-'));
afterAll(() => {
  removeCdkOutdirs();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the stage of the stack', () => {
  it.each([
    [{}, BASE_STACK_NAME],
    [{ stage: 'dev' }, 'Easel-dev'],
    [{ stage: 'pr42' }, 'Easel-pr42'],
  ])('with context %j the stack is %s', (context, name) => {
    expect(stackNameFromContext(newApp(context))).toBe(name);
  });

  it.each(['', 'dev_1', 'dev/prod', '1dev', 'x'.repeat(26)])('refuses the stage %j with a sentence, or treats an empty one as none', (stage) => {
    const app = newApp({ stage });
    if (stage === '') expect(stackNameFromContext(app)).toBe(BASE_STACK_NAME);
    else expect(() => stackNameFromContext(app)).toThrow(/Context stage must be a letter/);
  });

  it('synthesizes Easel-dev with -c stage=dev, its metrics, dashboard and alarms named after it, as cdk synth runs the app', () => {
    // Prepare: what the CLI hands the app (bundling skipped).
    const outdir = mkdtempSync(join(scratch, 'out-'));
    const env = { ...process.env, CDK_OUTDIR: outdir, CDK_CONTEXT_JSON: JSON.stringify({ ...CDK_JSON.context, stage: 'dev', 'aws:cdk:bundling-stacks': [] }) };

    // Act
    const result = spawnSync(process.execPath, [join(PROJECT_ROOT, 'infra', 'cdk-app.mjs')], { env, encoding: 'utf8', cwd: PROJECT_ROOT });

    // Assess
    expect(result.status, result.stderr).toBe(0);
    const templates = readdirSync(outdir)
      .filter((name) => name.endsWith('.template.json'))
      .sort();
    const alarms = templates.filter((name) => /^EaseldevAlarmsStack[0-9A-F]{8}\.nested\.template\.json$/.test(name));
    expect(templates.filter((name) => !name.endsWith('.nested.template.json'))).toEqual(['Easel-dev.template.json']);
    expect(alarms).toHaveLength(1);
    const template = JSON.stringify(JSON.parse(readFileSync(join(outdir, 'Easel-dev.template.json'), 'utf8')));
    expect(template).toContain('"METRICS_NAMESPACE":"Easel-dev"');
    expect(template).toContain('"MetricNamespace":"Easel-dev"');
    expect(template).toContain('"DashboardName":{"Fn::Join":["",["Easel-dev-"');
    expect(JSON.stringify(JSON.parse(readFileSync(join(outdir, alarms[0]!), 'utf8')))).toContain('"AlarmName":"Easel-dev-CapturePageFunctionErrors"');
  }, 180_000);
});

describe('cdk watch', () => {
  const watch = CDK_JSON.watch!;
  const watched = (file: string) => watch.include.some((glob) => matchesGlob(file, glob)) && !watch.exclude.some((glob) => matchesGlob(file, glob));

  /** Every file of the repository that the synth reads: the app's modules and each function's bundle inputs. */
  const synthInputs = (() => {
    const entries = [
      'infra/app.ts',
      'infra/cdk-app.mjs',
      'editor/build.ts',
      'shared/docs/prerender-at-bundling.ts',
      'infra/assets/clean-capture.ts',
      'infra/assets/chromium.ts',
      FALLBACK.handler,
      ...ROUTE_LIST.map((row) => row.handler),
      ...Object.values(QUEUES).map((queue) => queue.worker.handler),
    ];
    const { metafile } = buildSync({
      absWorkingDir: PROJECT_ROOT,
      entryPoints: entries.map((entry) => join(PROJECT_ROOT, entry)),
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      write: false,
      outdir: join(scratch, 'watch'),
      metafile: true,
      logLevel: 'silent',
      loader: { '.css': 'empty', '.wasm': 'empty', '.svg': 'empty' },
    });
    return Object.keys(metafile.inputs).map((file) => relative(PROJECT_ROOT, join(PROJECT_ROOT, file)));
  })();

  it('is configured in cdk.json', () => {
    expect(watch.include.length).toBeGreaterThan(0);
  });

  it("watches every file the synth reads, the functions' code and the editor included", () => {
    expect(synthInputs.length).toBeGreaterThan(100);
    expect(synthInputs.filter((file) => !watched(file))).toEqual([]);
    for (const file of ['package-lock.json', 'shared/routes.ts', 'functions/releases/list-releases.ts']) expect(watched(file), file).toBe(true);
  });

  it('ignores what no deploy reads: tests, docs, the bench, build output, dependencies (the control: these match no include or an exclude)', () => {
    for (const file of [
      'test/unit/metrics.test.ts',
      'docs/deploy.md',
      'README.md',
      'bench/cold-start.ts',
      'bench-output/report.md',
      'cdk.out/Easel.template.json',
      'node_modules/aws-cdk-lib/package.json',
      'infra/local/main.ts',
    ]) {
      expect(watched(file), file).toBe(false);
    }
  });
});
