/**
 * `npm start`: the whole API on one port with embedded backends. `npm start -- --clean` (or
 * EASEL_CLEAN=1) wipes the local data first. Ctrl-C stops everything.
 */
import '../check-node.js';
import { log } from '#shared/log.ts';
import { ROUTE_LIST } from '#shared/routes.ts';
import { SESSION_COOKIE } from '#shared/http/cookies.ts';
import { connect } from '#infra/admin/connection.ts';
import { startLocal } from '#infra/local/runtime.ts';
import type { LocalRuntime } from '#infra/local/runtime.ts';
import { seedDemo } from '#infra/local/seed.ts';
import { LocalSettingError } from '#infra/local/ports.ts';
import { followOutbox } from '#infra/local/outbox.ts';

const clean = process.argv.includes('--clean') || process.env.EASEL_CLEAN === '1';
async function start(): Promise<LocalRuntime> {
  try {
    return await startLocal({ clean });
  } catch (error) {
    if (!(error instanceof LocalSettingError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
const runtime = await start();

// Installed before printing: whoever reads "Ctrl-C stops." may signal at once.
let stopping = false;
async function shutdown(reason: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`\n${reason}: stopping…\n`);
  await runtime.stop();
  process.exit(0);
}
// npm forwards SIGINT and SIGTERM here because the script execs this process without a shell.
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// npm killed outright sends no signal: stop rather than hold the ports.
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && void shutdown('npm ended'), 1_000).unref();
}

/** Never against AWS: a deployed stack's table is not a playground. */
async function demoLines(started: LocalRuntime): Promise<string[]> {
  if (process.env.DYNAMODB_ENDPOINT === 'aws' || process.env.EASEL_SEED === '0') return [];
  const connection = connect(process.env);
  try {
    const hours = process.env.SESSION_HOURS ? Number(process.env.SESSION_HOURS) : undefined;
    const demo = await seedDemo(connection.store, { sessionHours: hours });
    const cookie = `${SESSION_COOKIE}=${demo.sessionToken}`;
    return [
      '',
      `  Demo organization ${demo.organizationId} (plan ${demo.plan}); session of its owner ${demo.ownerEmail}.`,
      '  Fresh credentials on every start (the previous demo key and session are revoked):',
      `    export EASEL_API_KEY=${demo.apiKey}`,
      `    export EASEL_COOKIE='${cookie}'`,
      `    curl -s -b "$EASEL_COOKIE" ${started.url}/api/v1/bootstrap`,
      `    curl -s -b "$EASEL_COOKIE" ${started.url}/api/v1/organizations/${demo.organizationId}/members`,
      `  Sign in at ${started.url.replace('127.0.0.1', 'localhost')}/ (localhost: browsers refuse passkeys on an IP address)`,
      `  as ${demo.ownerEmail}, or as ${demo.inviteeEmail} (invited, no account yet):`,
      '  the code is printed here (and listed by npm run admin -- outbox).',
      '  More: npm run admin -- help',
    ];
  } catch (error) {
    return ['', `  Demo seed skipped: ${error instanceof Error ? error.message : String(error)}`];
  } finally {
    connection.close();
  }
}
const demo = await demoLines(runtime);

// The local stand-in for SES: each code appears on this console.
const outbox = runtime.env.EMAIL_OUTBOX;
if (outbox) {
  followOutbox(outbox, (message) => process.stderr.write(`\n  ✉  ${message.to}: ${message.subject}\n`));
}

const lines = [
  `Easel is listening on ${runtime.url}  (${ROUTE_LIST.length} routes)`,
  `  data:       ${runtime.dataDir}${clean ? '  (started clean)' : ''}`,
  ...runtime.backends.map((backend) => `  ${backend.name.padEnd(18)} ${backend.endpoint}`),
  `  docs:       ${runtime.url}/docs   OpenAPI: ${runtime.url}/openapi.json`,
  ...(runtime.env.LOCAL_CAPTURE_PORTS ? [`  capture:    also loopback ports ${runtime.env.LOCAL_CAPTURE_PORTS} (LOCAL_CAPTURE_PORTS)`] : []),
  ...demo,
  ...(runtime.env.INTERNAL_SECRET
    ? [`  internal:   X-Easel-Internal-Secret: ${runtime.env.INTERNAL_SECRET}  (for /internal/*; set INTERNAL_SECRET to fix it)`]
    : []),
  '  Ctrl-C stops.',
];
process.stderr.write(`${lines.join('\n')}\n`);

log.debug('local runtime started', { url: runtime.url });
