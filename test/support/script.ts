import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a project script (`infra/local/main.ts`, the `npm start` entry point, …) on this Node as
 * its npm script would, with only PATH and HOME from this process plus `env` — no test settings —
 * and collects what it prints until it exits. `input`, when given, is its standard input.
 */
export function runScript(script: string, args: string[] = [], env: Record<string, string> = {}, input?: string): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, script), ...args], {
      env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? tmpdir(), ...env },
      cwd: PROJECT_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // Closed at once without input, which a script reads as an empty stdin.
    child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
