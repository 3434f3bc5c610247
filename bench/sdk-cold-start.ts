/** SDK-heavy routes' cold starts as the stack bundles them, as CDK's NodejsFunction does by default, and the empty floor. */
import '../test/support/env.ts';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import type { AssetStaging } from 'aws-cdk-lib';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import { startTestRuntime } from '../test/support/local.ts';
import { createFixtures, spendsItsRequest } from '../test/support/route-requests.ts';
import { ms } from './support/report.ts';
import type { BenchTable } from './support/report.ts';
import {
  COLD_CHILD,
  JSON_GOAL_MS,
  SHARED_KEY_NOTE,
  bundle,
  coldChildEnv,
  coldFigures,
  emptyHandler,
  eventFor,
  fixtureRequest,
  runChild,
} from './support/route-bundles.ts';
import type { ChildResult, PlannedRequest, Row } from './support/route-bundles.ts';

const ROUNDS = Number(process.env.BENCH_SDK_COLD_ROUNDS ?? 10);
/**
 * The DynamoDB JSON route (the one the absolute goal applies to), the S3 presign, the bootstrap;
 * `BENCH_SDK_COLD_ROUTES=listReleases,signInWithPasskey` names others.
 */
const ROUTES = process.env.BENCH_SDK_COLD_ROUTES?.split(',').filter(Boolean) ?? ['listReleases', 'createAssetUpload', 'getBootstrap'];
/** Goal: Easel's import + first call at most this share of the CDK default's. */
const RATIO_GOAL = 0.6;
const PINNED = ['taskset', '-c', '1'];
/** `BENCH_COLD_PROFILE=<dir>`: each child also writes a CPU profile there, named by route, variant and round. */
const PROFILE_DIR = process.env.BENCH_COLD_PROFILE;
/** Under the repository, so that the CDK bundles' external SDK resolves from its node_modules. */
const CDK_OUT = join(PROJECT_ROOT, 'bench-output', 'cdk-default');
const CDK_VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules', 'aws-cdk-lib', 'package.json'), 'utf8')) as { version: string }).version;

interface Variant {
  label: string;
  file: string;
  bytes: number;
  runs: ChildResult[];
}

/** Every bundling option at NodejsFunction's default (with this project's feature flags), or `format` where that fails. */
function cdkDefaultBundle(stack: Stack, row: Row, format?: OutputFormat): { file: string; bytes: number } {
  const fn = new NodejsFunction(stack, `${row.operationId}-${format ?? 'default'}`, {
    entry: join(PROJECT_ROOT, row.handler),
    runtime: Runtime.NODEJS_24_X,
    projectRoot: PROJECT_ROOT,
    depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
    // Quiets esbuild's console (its import.meta warnings under CJS); the bundle is the same.
    bundling: { logLevel: LogLevel.ERROR, ...(format ? { format } : {}) },
  });
  const staged = (fn.node.findChild('Code').node.findChild('Stage') as AssetStaging).absoluteStagedPath;
  const file = join(staged, format === OutputFormat.ESM ? 'index.mjs' : 'index.js');
  return { file, bytes: statSync(file).size };
}

const errorLine = (error: unknown) => {
  const text = error instanceof Error ? error.message : String(error);
  return /^\w*(?:Error|Exception)\b.*$/m.exec(text)?.[0] ?? text.split('\n')[0]!;
};

const is2xx = (statuses: string) => statuses.split('/').every((status) => /^2\d\d$/.test(status));

export async function bench(): Promise<BenchTable[]> {
  rmSync(CDK_OUT, { recursive: true, force: true });
  const context = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
  const stack = new Stack(new App({ outdir: CDK_OUT, context }), 'SdkColdStart');
  // Lambda's /var/task has no package.json, so index.js is CommonJS there; the repository's says "module".
  writeFileSync(join(CDK_OUT, 'package.json'), '{ "type": "commonjs" }\n');
  const runtime = await startTestRuntime();
  const scratch = mkdtempSync(join(tmpdir(), 'easel-sdk-cold-'));
  try {
    const fixtures = await createFixtures(runtime);
    const env = coldChildEnv(runtime);
    let eventsWritten = 0;
    // A new events file for every process: each event comes from a fresh source address (rate limits),
    // with a request of its own where answering spends it (a challenge, a code).
    const eventsOf = async (row: Row, request: PlannedRequest) => {
      const file = join(scratch, `events-${eventsWritten++}.json`);
      const sent = spendsItsRequest(row) ? await fixtureRequest(runtime.url, fixtures, row) : request;
      writeFileSync(file, JSON.stringify([eventFor(row, sent)]));
      return file;
    };
    /** Why the CJS bundle failed → the routes it failed for. */
    const cjsFailures = new Map<string, string[]>();
    const routes: { row: Row; request: PlannedRequest; variants: Variant[] }[] = [];
    for (const operationId of ROUTES) {
      const row = FULL_ROUTE_LIST.find((candidate) => candidate.operationId === operationId);
      if (!row) throw new Error(`BENCH_SDK_COLD_ROUTES: no route ${operationId}`);
      const request = await fixtureRequest(runtime.url, fixtures, row);
      let cdk = { label: '(b) CDK default, CJS', ...cdkDefaultBundle(stack, row) };
      // The default is CJS; where the handler cannot run so (import.meta), ESM with the other defaults.
      const probe = await runChild([COLD_CHILD, cdk.file, await eventsOf(row, request)], env).then(
        (run) => (is2xx(String(run.invocations[0]?.status)) ? undefined : `status ${run.invocations[0]?.status}`),
        errorLine,
      );
      if (probe) {
        cjsFailures.set(probe, [...(cjsFailures.get(probe) ?? []), operationId]);
        cdk = { label: '(b) CDK default but ESM (CJS fails)', ...cdkDefaultBundle(stack, row, OutputFormat.ESM) };
      }
      routes.push({
        row,
        request,
        variants: [
          { label: "(a) Easel's bundle", ...(await bundle(row)), runs: [] },
          { ...cdk, runs: [] },
          { label: '(c) empty handler', ...emptyHandler(join(scratch, `empty-${operationId}`)), runs: [] },
        ],
      });
    }

    // Round 0 warms the disk cache and is not counted; the order turns every round so that no
    // variant always follows the same one.
    for (let round = 0; round <= ROUNDS; round++) {
      for (const { row, request, variants } of routes) {
        for (const variant of round % 2 ? [...variants].reverse() : variants) {
          const name = `${row.operationId}-${variant.label.slice(1, 2)}-${round}.cpuprofile`;
          const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${name}`, '--cpu-prof-interval=100'] : [];
          const run = await runChild([...profile, COLD_CHILD, variant.file, await eventsOf(row, request)], env, PINNED);
          if (round > 0) variant.runs.push(run);
        }
      }
    }
    fixtures.close();

    const rows: (string | number)[][] = [];
    const goals: (string | number)[][] = [];
    for (const { row, variants } of routes) {
      const figures = variants.map((variant) => coldFigures(variant.runs));
      variants.forEach((variant, index) => {
        const { importMs, firstMs, requests, coldMs, coldCpuMs, wallMs, statuses } = figures[index]!;
        rows.push([
          row.operationId,
          variant.label,
          Math.round(variant.bytes / 1024),
          ms(importMs),
          ms(firstMs),
          requests,
          ms(coldMs),
          ms(coldCpuMs),
          ms(wallMs),
          is2xx(statuses) ? statuses : `${statuses}: NOT 2xx`,
        ]);
      });
      const [easel, cdk] = [figures[0]!, figures[1]!];
      // A figure measured on a call that failed meets no goal.
      const answered = is2xx(easel.statuses) && is2xx(cdk.statuses);
      const verdict = (met: boolean) => (met && answered ? 'met' : 'MISSED');
      const ratio = easel.coldMs / cdk.coldMs;
      const failed = answered ? '' : ' (a first call not 2xx)';
      goals.push([
        `${row.operationId}: (a)/(b) import + 1st call${failed}`,
        ms(easel.coldMs),
        ms(cdk.coldMs),
        ratio.toFixed(2),
        `≤ ${RATIO_GOAL}`,
        verdict(ratio <= RATIO_GOAL),
      ]);
      if (row.operationId === 'listReleases')
        goals.push([
          `${row.operationId}: (a) import + 1st call${failed}`,
          ms(easel.coldMs),
          '',
          `${ms(easel.coldMs)} ms`,
          `≤ ${JSON_GOAL_MS} ms`,
          verdict(easel.coldMs <= JSON_GOAL_MS),
        ]);
    }
    const where = `Fresh Node ${process.versions.node} processes pinned to one core (${PINNED.join(' ')}), median of ${ROUNDS} interleaved rounds`;
    return [
      {
        title: `SDK cold start, Easel vs CDK default: ${where}`,
        columns: [
          'route',
          'variant',
          'bundle KB',
          'import ms',
          '1st call ms',
          "1st call's requests",
          'import + 1st call ms',
          'its CPU ms',
          'process ms',
          'status',
        ],
        rows,
        notes: [
          `(a) bench-output/bundles/: the stack's esbuild options (bundleOptions(): ESM, minified, names too, node24, the SDK bundled, its credential chain replaced by shared/wiring/lambda-credentials.ts,`,
          `    its event streams left out, S3's client from the copy with literal schema keys: infra/constructs/sdk-literal-keys.ts).`,
          `(b) bench-output/cdk-default/: built by aws-cdk-lib ${CDK_VERSION}'s NodejsFunction itself, runtime NODEJS_24_X and no bundling options: --bundle --platform=node --target=node24,`,
          `    no --format (so CJS, index.js), externals @aws-sdk/* and @smithy/* (cdk.json's @aws-cdk/aws-lambda-nodejs:sdkV3ExcludeSmithyPackages; @aws-sdk/* alone without it),`,
          `    not minified, no source map, esbuild's own main fields; the externals load from node_modules at run time (Lambda's runtime SDK in its place), not counted in "bundle KB".`,
          ...[...cjsFailures].map(
            ([reason, ids]) =>
              `    ${ids.join(', ')}: the CJS bundle fails at import, so (b) is format: OutputFormat.ESM (index.mjs), every other option default: ${reason}`,
          ),
          `(c) an ES module whose handler does nothing, through the same child: the floor.`,
          `Each process imports the bundle and makes one call with seeded credentials against the embedded DynamoDB and S3; "status": its answers over the rounds.`,
          SHARED_KEY_NOTE,
          `"its CPU ms": the CPU time of the import and the first call, which other work on the core stretches less than their time on the clock.`,
          `"process ms": spawn (through taskset) to exit, as the parent sees it.`,
        ],
      },
      {
        title: `SDK cold start goals: (a) Easel vs (b) CDK default, import + 1st call (median of ${ROUNDS}, one core)`,
        columns: ['measurement', '(a) ms', '(b) ms', 'value', 'goal', 'result'],
        rows: goals,
      },
    ];
  } finally {
    await runtime.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
}
