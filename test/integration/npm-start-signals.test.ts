/**
 * `npm start` as a process manager or a second terminal stops it: a signal sent to the npm
 * process alone (not to its whole process group, as Ctrl-C does) stops the server and frees its
 * ports, and so does npm being killed outright.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import type { RecordedEndpoints } from '#infra/local/endpoints-file.ts';

const STOP_WITHIN_MS = 10_000;

let started: { npm: ChildProcess; server?: number; dataDir: string } | undefined;

afterEach(() => {
  if (!started) return;
  // A failed test must not leave a server behind: its group (npm, and a shell if any) and the server itself.
  const { npm, server, dataDir } = started;
  started = undefined;
  for (const kill of [() => process.kill(-npm.pid!, 'SIGKILL'), () => server && process.kill(server, 'SIGKILL')]) {
    try {
      kill();
    } catch {
      // Already gone.
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `npm start` on free ports and its own data folder; resolves once it says it listens. */
async function npmStart(): Promise<{ npm: ChildProcess; stderr: () => string; record: RecordedEndpoints; exited: Promise<unknown> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'easel-npm-start-'));
  const npm = spawn('npm', ['start'], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? tmpdir(),
      EASEL_DATA_DIR: dataDir,
      EASEL_SEED: '0',
      PORT: '0',
      DYNAMODB_PORT: '0',
      S3_PORT: '0',
      SQS_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that a signal reaches npm alone, as `kill <pid>` from elsewhere does.
    detached: true,
  });
  started = { npm, dataDir };
  let stderr = '';
  const exited = new Promise((resolve) => npm.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    npm.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Ctrl-C stops.')) resolve();
    });
    npm.stdout!.resume();
    void exited.then(() => reject(new Error(`npm start ended before listening:\n${stderr}`)));
  });
  const record = JSON.parse(readFileSync(join(dataDir, 'endpoints.json'), 'utf8')) as RecordedEndpoints;
  started.server = record.pid;
  return { npm, stderr: () => stderr, record, exited };
}

/** Whether something listens on the port of `url` right now. */
function listening(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(true));
    probe.listen(Number(new URL(url).port), '127.0.0.1', () => probe.close(() => resolve(false)));
  });
}

/** Polls `done` until it holds or STOP_WITHIN_MS pass; returns whether it held. */
async function within(done: () => Promise<boolean>): Promise<boolean> {
  for (const end = Date.now() + STOP_WITHIN_MS; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (await done()) return true;
  }
  return done();
}

describe('npm start', () => {
  it.each([
    ['SIGINT', 'SIGINT'],
    ['SIGTERM', 'SIGTERM'],
    // No signal can be forwarded: the server sees npm go.
    ['SIGKILL', 'npm ended'],
  ] as const)(
    'stops the server and its backends when the npm process alone gets %s',
    async (signal, reason) => {
      // Prepare
      const { npm, stderr, record, exited } = await npmStart();
      const urls = [record.url, ...[...stderr().matchAll(/ (http:\/\/127\.0\.0\.1:\d+)\n/g)].map((match) => match[1]!)];
      let npmExited = false;
      void exited.then(() => (npmExited = true));

      // Act
      process.kill(npm.pid!, signal);
      const stopped = await within(async () => npmExited && stderr().includes('stopping…') && !(await Promise.all(urls.map(listening))).includes(true));

      // Assess
      expect(urls).toHaveLength(4);
      expect(stopped).toBe(true);
      expect(stderr()).toContain(`\n${reason}: stopping…\n`);
      expect(await Promise.all(urls.map(listening))).toEqual([false, false, false, false]);
      expect(() => readFileSync(join(started!.dataDir, 'endpoints.json'))).toThrow(/ENOENT/);
    },
    60_000,
  );
});
