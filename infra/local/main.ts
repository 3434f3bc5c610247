/**
 * `npm start`: the whole API on one port with embedded backends. `npm start -- --clean` (or
 * EASEL_CLEAN=1) wipes the local data first. Ctrl-C stops everything.
 */
import '../check-node.js';
import { log } from '#shared/log.ts';
import { ROUTE_LIST } from '#shared/routes.ts';
import { startLocal } from '#infra/local/runtime.ts';

const clean = process.argv.includes('--clean') || process.env.EASEL_CLEAN === '1';
const runtime = await startLocal({ clean });

const lines = [
  `Easel is listening on ${runtime.url}  (${ROUTE_LIST.length} routes)`,
  `  data:       ${runtime.dataDir}${clean ? '  (started clean)' : ''}`,
  ...runtime.backends.map((backend) => `  ${backend.name.padEnd(18)} ${backend.endpoint}`),
  `  docs:       ${runtime.url}/docs   OpenAPI: ${runtime.url}/openapi.json`,
  ...(runtime.env.INTERNAL_SECRET ? [`  internal:   X-Easel-Internal-Secret: ${runtime.env.INTERNAL_SECRET}  (for /internal/*; set INTERNAL_SECRET to fix it)`] : []),
  '  Ctrl-C stops.',
];
process.stderr.write(lines.join('\n') + '\n');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`\n${signal}: stopping…\n`);
  await runtime.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
log.debug('local runtime started', { url: runtime.url });
