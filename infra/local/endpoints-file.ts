/**
 * Where a running `npm start` says it listens, kept in its data folder (endpoints.json) while it
 * runs, so `npm run admin` finds its DynamoDB whatever ports it was started on.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The file's name inside the data folder. */
export const ENDPOINTS_FILE = 'endpoints.json';

/** What a running local server records: no secret, only where it is. */
export interface RecordedEndpoints {
  /** The process serving, to tell a running server from one that was killed. */
  pid: number;
  url: string;
  /** The DynamoDB its handlers use; absent when that is AWS's. */
  dynamodb?: string;
  workspaceTable: string;
}

/** The data folder of `npm start`: EASEL_DATA_DIR, or .easel-data in the project. */
export function dataDirFrom(env: NodeJS.ProcessEnv): string {
  return resolve(env.EASEL_DATA_DIR?.trim() || join(ROOT, '.easel-data'));
}

/** Records where the server of `dataDir` listens; returns what removes the record. */
export function writeEndpoints(dataDir: string, endpoints: RecordedEndpoints): () => void {
  const file = join(dataDir, ENDPOINTS_FILE);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(endpoints, null, 2)}\n`);
  return () => {
    // Another server may have taken the folder over since: its record stays.
    if (readEndpoints(dataDir)?.pid === endpoints.pid) rmSync(file, { force: true });
  };
}

/** The record in `dataDir`, or undefined when there is none (no server ran there, or it stopped). */
export function readEndpoints(dataDir: string): RecordedEndpoints | undefined {
  let parsed: Partial<RecordedEndpoints>;
  try {
    parsed = JSON.parse(readFileSync(join(dataDir, ENDPOINTS_FILE), 'utf8')) as Partial<RecordedEndpoints>;
  } catch {
    // Missing, or cut short by a crash while written: no usable record either way.
    return undefined;
  }
  if (typeof parsed.pid !== 'number' || typeof parsed.workspaceTable !== 'string') return undefined;
  return parsed as RecordedEndpoints;
}

/** Whether the process that wrote a record still runs. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
