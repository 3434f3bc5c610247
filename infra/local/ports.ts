/**
 * Ports of `npm start`. The backends sit in a block clear of LocalStack, DynamoDB Local, MinIO,
 * ElasticMQ, dev servers' fallbacks above 3000 and the ephemeral range.
 */
import { createServer } from 'node:net';

export const DEFAULT_PORTS = { PORT: 3000, DYNAMODB_PORT: 3571, S3_PORT: 3572, SQS_PORT: 3573 } as const;

export type PortVariable = keyof typeof DEFAULT_PORTS;

const WHAT: Record<PortVariable, string> = {
  PORT: 'the HTTP server',
  DYNAMODB_PORT: 'the embedded DynamoDB',
  S3_PORT: 'the embedded S3',
  SQS_PORT: 'the embedded SQS',
};

/** A setting `npm start` cannot run with; its message is one line naming the variable. */
export class LocalSettingError extends Error {}

/** The port a variable sets, or its default. */
export function portFrom(env: NodeJS.ProcessEnv, variable: PortVariable): number {
  const value = env[variable];
  if (value === undefined || value === '') return DEFAULT_PORTS[variable];
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535)
    throw new LocalSettingError(`${variable} must be a port number from 0 to 65535 (0 picks a free one), not ${JSON.stringify(value)}.`);
  return parsed;
}

function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

async function freePortNear(port: number, host: string): Promise<number | undefined> {
  const defaults = new Set<number>(Object.values(DEFAULT_PORTS));
  for (let candidate = port + 1; candidate <= Math.min(port + 20, 65_535); candidate++) {
    if (!defaults.has(candidate) && (await isFree(candidate, host))) return candidate;
  }
  return undefined;
}

/** Turns a taken or privileged port into a {@link LocalSettingError} naming the variable and a free port. */
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
