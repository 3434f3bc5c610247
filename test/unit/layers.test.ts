/**
 * The layers of shared/ as docs/architecture.md lists them: every file has a layer, and no file
 * imports one of a higher layer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHARED = join(ROOT, 'shared');

/** `file or folder/` → layer number, from the table under "The layers of `shared/`". */
function documentedLayers(): Map<string, number> {
  const markdown = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = markdown.split('## The layers of `shared/`')[1]!.split('\n## ')[0]!;
  const layers = new Map<string, number>();
  for (const row of section.matchAll(/^\|\s*(\d+)\s*\|[^|]*\|([^|]*)\|/gm)) {
    for (const [, name] of row[2]!.matchAll(/`([a-z0-9./-]+)`/g)) layers.set(name!, Number(row[1]));
  }
  return layers;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SHARED, path)] : [];
  });
}

/** A path under shared/ → the table's entry for it: its folder (`store/`) or the file itself. */
function entryOf(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? path : `${path.slice(0, slash)}/`;
}

const layers = documentedLayers();
const files = sourceFiles(SHARED);

describe('the layers of shared/', () => {
  it('gives every file of shared/ a layer in docs/architecture.md', () => {
    expect(files.map(entryOf).filter((entry) => !layers.has(entry))).toEqual([]);
  });

  it('has no import of a higher layer', () => {
    const upward: string[] = [];
    for (const file of files) {
      const own = layers.get(entryOf(file)) ?? 0;
      const source = readFileSync(join(SHARED, file), 'utf8');
      // Type-only imports count too: they tie the lower layer to the higher one's shapes.
      for (const [, target] of source.matchAll(/\bfrom '#shared\/([^']+)'/g)) {
        const theirs = layers.get(entryOf(target!)) ?? 0;
        if (theirs > own) upward.push(`${file} (${own}) imports ${target} (${theirs})`);
      }
    }
    expect(upward).toEqual([]);
  });
});
