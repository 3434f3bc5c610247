/**
 * `npm run bench [-- <area> …]`: runs every bench module in bench/ (or the named ones) and prints
 * their tables. A module is a file bench/<area>.ts exporting `bench(): Promise<BenchTable[]>`
 * (tables printed here) or `run(): Promise<void>` (prints its own); adding one needs no change here. Each module runs in its own child process, so the settings it
 * sets (ports, test opt-ins) and the singletons it creates cannot leak into another's figures.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
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

async function runOne(name: string): Promise<void> {
  const module = (await import(pathToFileURL(join(HERE, `${name}.ts`)).href)) as BenchModule;
  if (typeof module.run === 'function') return module.run();
  if (typeof module.bench !== 'function') throw new Error(`bench/${name}.ts exports neither bench() nor run()`);
  for (const table of await module.bench()) process.stdout.write(formatTable(table) + '\n');
}

function runChild(name: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SELF, '--module', name], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
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
  let failed = 0;
  for (const name of names) {
    process.stdout.write(`\n=== ${name} ===\n`);
    if ((await runChild(name)) !== 0) failed += 1;
  }
  process.exit(failed === 0 ? 0 : 1);
}
