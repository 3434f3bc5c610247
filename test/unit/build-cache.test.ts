import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedBuild, cachedBuildAsync } from '#infra/assets/build-cache.ts';

let cache: string;
beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'easel-build-cache-test-'));
});
afterEach(() => rmSync(cache, { recursive: true, force: true }));

const writeNote = (text: string) => (staging: string) => writeFileSync(join(staging, 'note.txt'), text);

describe('cachedBuild', () => {
  it('builds on first use and reuses the build after', () => {
    // Arrange
    const target = join(cache, 'key-1');
    let builds = 0;
    const write = (staging: string) => {
      builds += 1;
      writeNote('first')(staging);
    };

    // Act
    const first = cachedBuild(target, write);
    const second = cachedBuild(target, write);

    // Assess
    expect([first, second, builds]).toEqual([target, target, 1]);
    expect(readFileSync(join(target, 'note.txt'), 'utf8')).toBe('first');
    expect(readdirSync(cache)).toEqual(['key-1']);
  });

  it('throws what the build threw and leaves nothing behind', () => {
    const target = join(cache, 'key-1');

    expect(() =>
      cachedBuild(target, () => {
        throw new Error('no fonts');
      }),
    ).toThrow('no fonts');
    expect(readdirSync(cache)).toEqual([]);
  });

  it('keeps the build another process renamed into place first, its own failed or not', () => {
    // Arrange: the other build lands while this one writes.
    const target = join(cache, 'key-1');
    const other = (staging: string) => {
      mkdirSync(target);
      writeFileSync(join(target, 'note.txt'), 'other');
      writeNote('mine')(staging);
    };

    // Act
    const built = cachedBuild(target, other);
    rmSync(target, { recursive: true });
    const afterFailure = cachedBuild(target, (staging) => {
      other(staging);
      throw new Error('disk full');
    });

    // Assess
    expect([built, afterFailure]).toEqual([target, target]);
    expect(readFileSync(join(target, 'note.txt'), 'utf8')).toBe('other');
    expect(readdirSync(cache)).toEqual(['key-1']);
  });

  it('removes the builds of older inputs when asked, never a build under way', async () => {
    // Arrange
    for (const name of ['key-0', '.staging-elsewhere']) mkdirSync(join(cache, name));

    // Act
    const target = await cachedBuildAsync(join(cache, 'key-1'), async (staging) => writeNote('new')(staging), { prune: true });

    // Assess
    expect(readdirSync(cache).sort()).toEqual(['.staging-elsewhere', 'key-1']);
    expect(existsSync(join(target, 'note.txt'))).toBe(true);
  });
});
