import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript, type ScriptResult } from '../support/script.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'easel-ports-'));
const held: Server[] = [];
afterAll(async () => {
  await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(dataDir, { recursive: true, force: true });
});

/** Listens on a free loopback port, as another program would, and returns it. */
async function holdPort(): Promise<number> {
  const server = createServer();
  held.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** Runs `npm start`'s entry point with each port free (0) unless given, and no demo seed. */
function npmStart(settings: Record<string, string>): Promise<ScriptResult> {
  return runScript('infra/local/main.ts', [], {
    EASEL_DATA_DIR: dataDir,
    EASEL_SEED: '0',
    PORT: '0',
    DYNAMODB_PORT: '0',
    S3_PORT: '0',
    SQS_PORT: '0',
    ...settings,
  });
}

describe('npm start on a busy port', () => {
  it.each([
    ['PORT', 'the HTTP server'],
    ['DYNAMODB_PORT', 'the embedded DynamoDB'],
    ['S3_PORT', 'the embedded S3'],
    ['SQS_PORT', 'the embedded SQS'],
  ])('ends with one line naming %s and exit code 1', async (variable, what) => {
    // Prepare
    const port = await holdPort();

    // Act
    const result = await npmStart({ [variable]: String(port) });

    // Assess
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(`^Port ${port} is in use \\(another Easel or some other server\\): set ${variable}=\\d+ for ${what}, or stop what holds it\\.\\n$`),
    );
    // The suggested port was free a moment ago, and is not the busy one.
    expect(Number(/=(\d+) /.exec(result.stderr)![1])).not.toBe(port);
  });

  it('refuses a port setting that is not a number in one line', async () => {
    // Act
    const result = await npmStart({ S3_PORT: 'fourthousand' });

    // Assess
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('S3_PORT must be a port number from 0 to 65535 (0 picks a free one), not "fourthousand".\n');
  });
});
