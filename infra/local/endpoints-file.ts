/** Where a running `npm start` listens, recorded in its data folder so `npm run admin` finds it on any port. */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

export const ENDPOINTS_FILE = 'endpoints.json';

/** No secret, only where it is. */
export interface RecordedEndpoints {
  /** Tells a running server from one that was killed. */
  pid: number;
  url: string;
  /** Absent when it is AWS's. */
  dynamodb?: string;
  workspaceTable: string;
}

/** EASEL_DATA_DIR, or .easel-data in the project. */
export function dataDirFrom(env: NodeJS.ProcessEnv): string {
  return resolve(env.EASEL_DATA_DIR?.trim() || join(ROOT, '.easel-data'));
}

/** Returns what removes the record. */
export function writeEndpoints(dataDir: string, endpoints: RecordedEndpoints): () => void {
  const file = join(dataDir, ENDPOINTS_FILE);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(endpoints, null, 2)}\n`);
  return () => {
    // Another server may have taken the folder over since: its record stays.
    if (readEndpoints(dataDir)?.pid === endpoints.pid) rmSync(file, { force: true });
  };
}

/** Undefined when no server ran there, or it stopped. */
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

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
