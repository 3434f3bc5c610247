/**
 * `npm run bench [-- <area> …]`: runs each bench/<area>.ts and writes bench-output/report.md. Each
 * runs in a child process, so its settings and singletons cannot leak into another's figures.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatTable } from './support/report.ts';
import type { BenchTable } from './support/report.ts';

export type { BenchTable };

/** What a bench/<area>.ts module exports. */
export type BenchModule = { bench?: () => Promise<BenchTable[]>; run?: () => Promise<void> };

const HERE = fileURLToPath(new URL('.', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

function modules(): string[] {
  return readdirSync(HERE)
    .filter((file) => file.endsWith('.ts') && join(HERE, file) !== SELF && !file.startsWith('_') && !file.endsWith('.d.ts'))
    .map((file) => basename(file, '.ts'))
    .sort();
}

const REPORT = join(HERE, '..', 'bench-output', 'report.md');

async function runOne(name: string): Promise<void> {
  const module = (await import(pathToFileURL(join(HERE, `${name}.ts`)).href)) as BenchModule;
  if (typeof module.run === 'function') return module.run();
  if (typeof module.bench !== 'function') throw new Error(`bench/${name}.ts exports neither bench() nor run()`);
  const tables = await module.bench();
  for (const table of tables) process.stdout.write(`${formatTable(table)}\n`);
  // Handed to the parent for the report.
  if (process.send) await new Promise((resolve) => process.send!(tables, resolve));
}

interface AreaResult {
  name: string;
  code: number;
  seconds: number;
  tables: BenchTable[];
}

function runChild(name: string): Promise<AreaResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [SELF, '--module', name], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
    const tables: BenchTable[] = [];
    child.on('message', (message) => tables.push(...(message as BenchTable[])));
    child.on('exit', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000, tables }));
  });
}

/** Every row of a table with a `result` column: its goal and whether it was met. */
function verdicts(area: string, table: BenchTable): (string | number)[][] {
  const result = table.columns.indexOf('result');
  const goal = table.columns.indexOf('goal');
  if (result < 0) return [];
  return table.rows
    .filter((row) => row[result] === 'met' || row[result] === 'MISSED')
    .map((row) => [area, table.title.split(':')[0]!, String(row[0]).trim(), goal >= 0 ? row[goal]! : '', row[result]!]);
}

function machine(): string[] {
  const cpu = cpus();
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    if (execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim()) commit += ' (with uncommitted changes)';
  } catch {
    // Not a git checkout: the report still stands.
  }
  return [
    `- ${new Date().toISOString()}, commit ${commit}, Node ${process.versions.node}`,
    `- ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; load average (1, 5, 15 min) ${load}`,
  ];
}

function report(results: AreaResult[], before: string[]): string {
  const goals = results.flatMap((area) => area.tables.flatMap((table) => verdicts(area.name, table)));
  const summary: BenchTable = {
    title: `Goals: ${goals.filter((row) => row[4] === 'met').length} met, ${goals.filter((row) => row[4] === 'MISSED').length} missed`,
    columns: ['area', 'table', 'measurement', 'goal', 'result'],
    rows: goals,
  };
  return [
    '# Easel bench report',
    '',
    'Started:',
    ...before,
    'Finished:',
    ...machine(),
    '- Other work may share this machine: compare ratios measured side by side, not absolute times across runs.',
    formatTable(summary),
    ...results.flatMap((area) => [
      `\n## ${area.name} (${area.seconds.toFixed(0)} s${area.code === 0 ? '' : `, FAILED with exit code ${area.code}`})`,
      ...area.tables.map(formatTable),
    ]),
    '',
  ].join('\n');
}

if (process.argv[1] === SELF) {
  const index = process.argv.indexOf('--module');
  if (index >= 0) {
    await runOne(process.argv[index + 1]!);
    process.exit(0);
  }
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const names = modules().filter((name) => wanted.length === 0 || wanted.includes(name));
  const unknown = wanted.filter((name) => !modules().includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`No bench module ${unknown.join(', ')}; available: ${modules().join(', ')}\n`);
    process.exit(2);
  }
  const before = machine();
  const results: AreaResult[] = [];
  for (const name of names) {
    process.stdout.write(`\n=== ${name} ===\n`);
    results.push(await runChild(name));
  }
  const text = report(results, before);
  mkdirSync(join(HERE, '..', 'bench-output'), { recursive: true });
  writeFileSync(REPORT, text);
  process.stdout.write(`\n${text.slice(text.indexOf('\nGoals:'), text.indexOf('\n## '))}\nReport written to bench-output/report.md\n`);
  process.exit(results.every((area) => area.code === 0) ? 0 : 1);
}
