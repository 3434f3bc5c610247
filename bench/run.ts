/**
 * `npm run bench`: runs every benchmark module in this folder (each exports `run()`), in name
 * order, or only those named on the command line (`npm run bench -- export proxy`).
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const only = process.argv.slice(2);
const files = readdirSync(import.meta.dirname)
  .filter((name) => name.endsWith('.ts') && name !== 'run.ts')
  .filter((name) => only.length === 0 || only.includes(basename(name, '.ts')))
  .sort();

for (const file of files) {
  const module = (await import(pathToFileURL(join(import.meta.dirname, file)).href)) as { run?: () => Promise<void> };
  if (typeof module.run !== 'function') continue;
  process.stdout.write(`\n## ${basename(file, '.ts')}\n\n`);
  await module.run();
}
