/**
 * Vite, which runs the tests, turns a dynamic import of a template literal into a glob and warns
 * "invalid import" when the literal's static part has no extension; code loads a module whose
 * name it computes through a path built at run time instead (join(PROJECT_ROOT, …)).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/constructs/easel-function.ts';

const TEMPLATE_IMPORT = /\bimport\(\s*`/;

describe('dynamic imports', () => {
  it('never take a template literal', () => {
    // Prepare
    const files = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.mts', '*.js', '*.mjs'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);

    // Act
    const offenders = files.filter((file) => {
      try {
        return TEMPLATE_IMPORT.test(readFileSync(join(PROJECT_ROOT, file), 'utf8'));
      } catch {
        // Deleted in the working tree, not yet in git's index.
        return false;
      }
    });

    // Assess
    expect(files.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});
