import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { code, heading, link, table, text, withoutAnchors } from '#shared/docs/markdown.ts';

describe('docs markdown', () => {
  it('escapes every character of schema-derived text that could start markup', () => {
    expect(text('a_b *c* [d](e) <f> | ~g~ & `h`')).toBe('a\\_b \\*c\\* \\[d\\](e) \\<f\\> \\| \\~g\\~ \\& \\`h\\`');
    expect(marked.parseInline(text('<img src=x onerror=alert(1)> [x](javascript:1)'))).toBe('&lt;img src=x onerror=alert(1)&gt; [x](javascript:1)');
  });

  it('fences a code span longer than any backtick run inside it', () => {
    expect(code('plain')).toBe('`plain`');
    expect(code('a`b')).toBe('``a`b``');
    expect(code('`edge')).toBe('`` `edge ``');
  });

  it('keeps pipes inside table cells, code spans included', () => {
    const html = marked.parse(table(['Rule', 'Note'], [[code('^(png|jpeg)$'), text('a | b')]])) as string;

    expect(html).toContain('<td><code>^(png|jpeg)$</code></td>');
    expect(html).toContain('<td>a | b</td>');
  });

  it('writes heading anchors that the Markdown responses drop', () => {
    const source = `${heading(2, '`not_found`', 'not_found')}\n\ntext`;

    expect(source).toBe('## `not_found` {#not_found}\n\ntext');
    expect(withoutAnchors(source)).toBe('## `not_found`\n\ntext');
  });

  it('escapes only what would end a link', () => {
    expect(link('List [all]', 'http://easel.test/docs#x (y)')).toBe('[List \\[all\\]](http://easel.test/docs#x%20%28y%29)');
  });
});
