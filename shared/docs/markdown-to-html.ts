/**
 * Markdown to HTML for the site pages, and their layout. The pages' CSP allows one inline
 * stylesheet and nothing else: no scripts, nothing fetched.
 */
import { Lexer, Marked } from 'marked';
import type { Token, Tokens } from 'marked';
import { PAGES, PRODUCT } from '#shared/docs/catalog.ts';
import { escapeHtml } from '#shared/docs/escape.ts';

// kramdown-style heading attribute, written by markdown.ts `heading(depth, title, id)`.
const ANCHOR = /\s+\{#([A-Za-z0-9_.:-]+)\}\s*$/;

type AnchoredHeading = Tokens.Heading & { anchor?: string };

function slug(value: string): string {
  return (
    value
      .toLowerCase()
      .replace(/<[^>]*>/g, '')
      .replace(/[^a-z0-9 _-]+/g, '')
      .trim()
      .replace(/\s+/g, '-') || 'section'
  );
}

/**
 * Renders trusted Markdown; headings get stable ids (`{#id}`, else a unique slug). Raw HTML is
 * shown as text, so no page carries markup the generator did not write.
 */
export function renderMarkdown(markdown: string): string {
  const used = new Set<string>();
  const unique = (id: string) => {
    let candidate = id;
    for (let n = 2; used.has(candidate); n += 1) candidate = `${id}-${n}`;
    used.add(candidate);
    return candidate;
  };
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    walkTokens(token: Token) {
      if (token.type !== 'heading') return;
      const match = ANCHOR.exec(token.text);
      if (!match) return;
      const heading = token as AnchoredHeading;
      heading.anchor = match[1];
      heading.text = heading.text.slice(0, match.index);
      heading.tokens = Lexer.lexInline(heading.text);
    },
    renderer: {
      heading(token) {
        const { anchor, depth, text, tokens } = token as AnchoredHeading;
        const id = unique(anchor ?? slug(text));
        return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      html({ text }) {
        return escapeHtml(text);
      },
    },
  });
  return marked.parse(markdown, { async: false });
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1d1f23; --muted: #5b6170; --bg: #fff; --soft: #f4f5f7; --line: #dfe2e8; --accent: #3451b2; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8ec; --muted: #a2a8b5; --bg: #15171b; --soft: #1f2228; --line: #2e323a; --accent: #8ea6ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header, main, footer { max-width: 60rem; margin: 0 auto; padding: 0 1.25rem; }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: baseline; padding-top: 1rem; padding-bottom: .75rem; border-bottom: 1px solid var(--line); }
header .brand { font-weight: 700; color: var(--fg); text-decoration: none; margin-right: auto; }
header nav a { margin-left: 1rem; }
main { padding-bottom: 3rem; }
footer { color: var(--muted); font-size: .875rem; padding-bottom: 2rem; border-top: 1px solid var(--line); padding-top: 1rem; }
a { color: var(--accent); }
h1, h2, h3, h4 { line-height: 1.25; margin: 2rem 0 .75rem; scroll-margin-top: 1rem; }
h1 { font-size: 2rem; } h2 { font-size: 1.5rem; border-bottom: 1px solid var(--line); padding-bottom: .3rem; } h3 { font-size: 1.2rem; } h4 { font-size: 1.05rem; }
code { font: .9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--soft); padding: .1em .3em; border-radius: 4px; overflow-wrap: anywhere; }
pre { background: var(--soft); padding: .9rem 1rem; border-radius: 6px; overflow-x: auto; }
pre code { background: none; padding: 0; overflow-wrap: normal; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; font-size: .925rem; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--line); padding: .4rem .6rem; text-align: left; vertical-align: top; }
th { background: var(--soft); }
blockquote { margin: 1rem 0; padding: .25rem 1rem; border-left: 4px solid var(--accent); color: var(--muted); }
`;

/** Wraps rendered HTML in the site layout. */
export function layout(options: { title: string; body: string; baseUrl: string }): string {
  const nav = [
    ['Editor', PAGES.home],
    ['API guide', PAGES.docs],
    ['Errors', PAGES.errors],
    ['OpenAPI', PAGES.openapi],
    ['llms.txt', PAGES.llms],
  ]
    .map(([label, path]) => `<a href="${escapeHtml(path!)}">${escapeHtml(label!)}</a>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><a class="brand" href="${PAGES.home}">${PRODUCT}</a><nav>${nav}</nav></header>
<main>
${options.body}</main>
<footer>Every page here is also served as Markdown: send <code>Accept: text/markdown</code>. API base URL: <code>${escapeHtml(options.baseUrl)}</code>.</footer>
</body>
</html>
`;
}
