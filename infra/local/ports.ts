/**
 * Default ports of `npm start`, and the one-line refusal when one is taken.
 *
 * The HTTP port stays 3000 (every example uses it). The embedded backends sit in a quiet block,
 * 3571–3573: clear of LocalStack (4566, 4510–4559), DynamoDB Local (8000), MinIO (9000),
 * ElasticMQ (9324), Sinatra (4567), the 3001–3010 that dev servers fall back to when 3000 is
 * taken, and Linux's ephemeral range (32768+). The admin command line finds the embedded
 * DynamoDB on whatever port it got through the data folder (infra/local/endpoints-file.ts).
 */
import { createServer } from 'node:net';

export const DEFAULT_PORTS = { PORT: 3000, DYNAMODB_PORT: 3571, S3_PORT: 3572, SQS_PORT: 3573 } as const;

/** The variable that sets a port of `npm start`. */
export type PortVariable = keyof typeof DEFAULT_PORTS;

const WHAT: Record<PortVariable, string> = {
  PORT: 'the HTTP server',
  DYNAMODB_PORT: 'the embedded DynamoDB',
  S3_PORT: 'the embedded S3',
  SQS_PORT: 'the embedded SQS',
};

/** A setting `npm start` cannot run with; its message is the whole explanation, in one line naming the variable. */
export class LocalSettingError extends Error {}

/** The port a variable sets, or its default. */
export function portFrom(env: NodeJS.ProcessEnv, variable: PortVariable): number {
  const value = env[variable];
  if (value === undefined || value === '') return DEFAULT_PORTS[variable];
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) throw new LocalSettingError(`${variable} must be a port number from 0 to 65535 (0 picks a free one), not ${JSON.stringify(value)}.`);
  return parsed;
}

/** Whether nothing listens on `port` of `host` right now. */
function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/** A port near `port` that is free now and is not another default of `npm start`. */
async function freePortNear(port: number, host: string): Promise<number | undefined> {
  const defaults = new Set<number>(Object.values(DEFAULT_PORTS));
  for (let candidate = port + 1; candidate <= Math.min(port + 20, 65_535); candidate++) {
    if (!defaults.has(candidate) && (await isFree(candidate, host))) return candidate;
  }
  return undefined;
}

/**
 * Runs `listen`; when it fails because the port is taken (or not this user's to bind), throws a
 * {@link LocalSettingError} naming the variable to change and, when it finds one, a port that
 * is free now.
 */
export async function listenOn<T>(variable: PortVariable, port: number, host: string, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
    const message =
      code === 'EADDRINUSE'
        ? `Port ${port} is in use (another Easel or some other server): set ${variable}=${(await freePortNear(port, host)) ?? '<a free port>'} for ${WHAT[variable]}, or stop what holds it.`
        : `Port ${port} needs privileges this user lacks: set ${variable}=${DEFAULT_PORTS[variable]} for ${WHAT[variable]}.`;
    throw new LocalSettingError(message, { cause: error });
  }
}
