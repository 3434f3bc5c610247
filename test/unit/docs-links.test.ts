/**
 * The README and docs/*.md link to each other and into the source: every relative link must name
 * a file that exists, and every #anchor a heading of the target as GitHub slugs it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** GitHub's heading slug (github-slugger): inline markup dropped, punctuation removed, each space a hyphen. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The lines outside fenced code blocks, HTML comments blanked. */
function proseLines(markdown: string): string[] {
  const lines = markdown.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, '')).split('\n');
  let fence: string | undefined;
  return lines.map((line) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opener) {
      fence = opener;
      return '';
    }
    if (fence !== undefined) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = undefined;
      return '';
    }
    return line;
  });
}

/** Every anchor a Markdown file offers: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

const INLINE_LINK = /!?\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(\S+)/;

/** The link targets of a Markdown file, outside code, each with its line number. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  proseLines(markdown).forEach((raw, index) => {
    const line = raw.replace(/(`+)[^`][\s\S]*?\1/g, '');
    for (const match of line.matchAll(INLINE_LINK)) links.push({ target: match[1]!.replace(/^<|>$/g, ''), line: index + 1 });
    const definition = REFERENCE_DEFINITION.exec(line)?.[1];
    if (definition) links.push({ target: definition, line: index + 1 });
  });
  return links;
}

/**
 * The relative links of one Markdown file that do not resolve, as `file:line target (why)`.
 * Links with a scheme (https:, mailto:) are not followed; a leading `/` is the repository root.
 */
function brokenLinks(file: string, root: string = ROOT): string[] {
  const markdown = readFileSync(file, 'utf8');
  const broken: string[] = [];
  for (const { target, line } of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) continue;
    const [rawPath = '', ...rest] = target.split('#');
    const anchor = rest.length > 0 ? decodeURIComponent(rest.join('#')) : undefined;
    const path = decodeURIComponent(rawPath);
    const resolved = path === '' ? file : path.startsWith('/') ? join(root, path) : resolve(dirname(file), path);
    const where = `${relative(root, file)}:${line} ${target}`;
    if (!existsSync(resolved)) {
      broken.push(`${where} (no such file)`);
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(resolved).isFile() && resolved.endsWith('.md')) {
      if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${where} (no heading #${anchor})`);
    } else if (!/^L\d+(-L\d+)?$/.test(anchor)) {
      broken.push(`${where} (#${anchor} is not a line of a source file)`);
    }
  }
  return broken;
}

const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('slug', () => {
  it.each([
    ['Quick start', 'quick-start'],
    ['Page capture (`POST /api/screenshot`)', 'page-capture-post-apiscreenshot'],
    ['The layers of `shared/`', 'the-layers-of-shared'],
    ['SSRF: what a capture may reach', 'ssrf-what-a-capture-may-reach'],
    ['Kept: `@fastify/busboy`, not `@middy/http-multipart-body-parser`', 'kept-fastifybusboy-not-middyhttp-multipart-body-parser'],
    ['Identity — and keys', 'identity--and-keys'],
    ['**Bold** and [a link](x.md)', 'bold-and-a-link'],
    ['snake_case stays', 'snake_case-stays'],
  ])('slugs %j as GitHub does: %j', (heading, expected) => {
    expect(slug(heading)).toBe(expected);
  });

  it('numbers repeated headings and ignores headings inside code', () => {
    const anchors = anchorsOf('# Limits\n## Limits\n```sh\n# not a heading\n```\n<a id="custom"></a>\n');

    expect([...anchors]).toEqual(['limits', 'limits-1', 'custom']);
  });
});

describe('brokenLinks', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('reports a missing file, a missing anchor and a missing line anchor, and nothing else', () => {
    dir = mkdtempSync(join(tmpdir(), 'easel-links-'));
    writeFileSync(join(dir, 'target.md'), '# Target\n## Some section\n');
    writeFileSync(join(dir, 'code.ts'), 'export {};\n');
    const page = join(dir, 'page.md');
    writeFileSync(
      page,
      [
        '# Page',
        '[ok](target.md#some-section) [ok](#page) [ok](code.ts#L1) [ok](https://example.com/x.md) [ok](/target.md)',
        '[gone](missing.md)',
        '[no heading](target.md#nope)',
        '[not a line](code.ts#top)',
        '`[in code](missing-too.md)`',
        '```',
        '[in a block](missing-three.md)',
        '```',
        '[ref]: ./missing-four.md',
      ].join('\n'),
    );

    expect(brokenLinks(page, dir)).toEqual([
      'page.md:3 missing.md (no such file)',
      'page.md:4 target.md#nope (no heading #nope)',
      'page.md:5 code.ts#top (#top is not a line of a source file)',
      'page.md:10 ./missing-four.md (no such file)',
    ]);
  });
});

describe('documentation links', () => {
  it.each(DOCUMENTS)('resolves every relative link and anchor in %s', (file) => {
    expect(brokenLinks(join(ROOT, file))).toEqual([]);
  });

  it('links every page of docs/ from the README', () => {
    const linked = linksOf(readFileSync(join(ROOT, 'README.md'), 'utf8')).map(({ target }) => target.split('#')[0]);

    expect(DOCUMENTS.filter((file) => file.startsWith('docs/') && !linked.includes(file))).toEqual([]);
  });
});

describe('README', () => {
  it('gives the set-up and test commands', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

    expect(readme).toContain('npm ci');
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });
});
