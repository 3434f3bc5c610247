/**
 * `npm run admin`: identity administration against a running `npm start` or a deployed stack's
 * table. Secrets are printed once, by the command that creates them.
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { HttpError, UpstreamUnavailableError } from '#shared/errors.ts';
import { COMMANDS, type CommandResult } from '#infra/admin/commands.ts';
import { ConnectionSettingError, connect } from '#infra/admin/connection.ts';
import type { Connection } from '#infra/admin/connection.ts';

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'Usage: npm run admin -- <command> [options] [--json]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    '',
    'npm run admin -- <command> --help lists the options of a command.',
    'Connects to the running npm start of the data folder EASEL_DATA_DIR (default .easel-data), on whatever ports it',
    'listens; DYNAMODB_PORT or DYNAMODB_ENDPOINT point elsewhere, and WORKSPACE_TABLE names the table (default',
    'easel-workspace). DYNAMODB_ENDPOINT=aws uses AWS and needs WORKSPACE_TABLE.',
  ].join('\n');
}

function commandUsage(name: string): string {
  const command = COMMANDS[name]!;
  return [
    `Usage: npm run admin -- ${name} [options] [--json]`,
    '',
    command.summary,
    '',
    ...Object.entries(command.options).map(
      ([option, spec]) => `  --${option}${spec.type === 'string' ? ' <value>' : ''}${spec.required ? ' (required)' : ''}\n      ${spec.description}`,
    ),
    '  --json\n      Print the result as JSON.',
  ].join('\n');
}

function explain(error: unknown, where: Pick<Connection, 'endpoint' | 'table' | 'unreachableHint'>): { code: string; message: string } {
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  const name = cause instanceof Error ? cause.name : '';
  if (error instanceof UpstreamUnavailableError) {
    return { code: error.code, message: `Cannot reach DynamoDB at ${where.endpoint}. ${where.unreachableHint}` };
  }
  if (name === 'ResourceNotFoundException') {
    return { code: 'not_found', message: `Table ${where.table} does not exist at ${where.endpoint}. Start \`npm start\` once, or set WORKSPACE_TABLE.` };
  }
  if (error instanceof HttpError) return { code: error.code, message: `${error.message}: ${error.hint}` };
  return { code: 'internal_error', message: error instanceof Error ? error.message : String(error) };
}

/** Where a command that uses no table says it looked: nowhere. */
const NO_TABLE = { endpoint: 'none', table: 'none', unreachableHint: '' };

export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: AdminIo = {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** Returns the exit code: 0 done, 1 failed, 2 usage error. `argv` is what follows `npm run admin --`. */
export async function runAdmin(argv: readonly string[], io: AdminIo = processIo): Promise<number> {
  const at = argv.findIndex((arg) => !arg.startsWith('-'));
  const name = at === -1 ? undefined : argv[at];
  if (!name || name === 'help') {
    io.stdout(`${usage()}\n`);
    return name ? 0 : argv.includes('--help') ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`Unknown command ${name}.\n\n${usage()}\n`);
    return 2;
  }
  const options: NonNullable<ParseArgsConfig['options']> = { json: { type: 'boolean' }, help: { type: 'boolean' } };
  for (const [option, spec] of Object.entries(command.options)) options[option] = { type: spec.type };
  let values: Record<string, string | boolean | undefined>;
  try {
    // No option is `multiple`, so every value is a string or a boolean.
    values = parseArgs({ args: argv.toSpliced(at, 1), options, strict: true, allowPositionals: false }).values as typeof values;
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${commandUsage(name)}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout(`${commandUsage(name)}\n`);
    return 0;
  }
  const missing = Object.entries(command.options).filter(([option, spec]) => spec.required && values[option] === undefined);
  if (missing.length > 0) {
    io.stderr(`Missing ${missing.map(([option]) => `--${option}`).join(', ')}.\n\n${commandUsage(name)}\n`);
    return 2;
  }

  const fail = ({ code, message }: { code: string; message: string }) => {
    io.stderr(values.json ? `${JSON.stringify({ error: message, code })}\n` : `error: ${message}\n`);
    return 1;
  };
  const print = (result: CommandResult) => {
    io.stdout(values.json ? `${JSON.stringify(result.data, null, 2)}\n` : `${result.lines.join('\n')}\n`);
    return 0;
  };
  if (command.table === false) {
    // Nothing to connect to: its deps are never read.
    return command.run(values, { store: undefined as never }, io.env).then(print, (error: unknown) => fail(explain(error, NO_TABLE)));
  }
  let connection: Connection;
  try {
    connection = connect(io.env);
  } catch (error) {
    if (!(error instanceof ConnectionSettingError)) throw error;
    return fail(error);
  }
  try {
    return print(await command.run(values, { store: connection.store }, io.env));
  } catch (error) {
    return fail(explain(error, connection));
  } finally {
    connection.close();
  }
}
