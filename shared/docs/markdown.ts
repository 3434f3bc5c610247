/**
 * Markdown builders for the pages and llms files. Text that is not our own prose goes through
 * `text` or `code`, so it can never open a link, a tag or a table cell of its own.
 */

// The punctuation that can start markup in running text; CommonMark lets any of it be escaped.
const MARKUP = /[\\`*_[\]<>|~&]/g;

/** Schema-derived prose as literal text: every character that could start markup is escaped. */
export function text(value: string): string {
  return value.replace(/\s+/g, ' ').trim().replace(MARKUP, '\\$&');
}

/** An inline code span holding exactly `value`, whatever backticks it contains. */
export function code(value: string): string {
  const flat = value.replace(/\s+/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A heading; `id` becomes kramdown's `{#id}`, which the HTML renderer reads and Markdown responses drop. */
export function heading(depth: number, title: string, id?: string): string {
  return `${'#'.repeat(depth)} ${title}${id ? ` {#${id}}` : ''}`;
}

/** A link. Title and URL are ours, so only what would end either is escaped. */
export function link(title: string, url: string): string {
  return `[${title.replace(/[[\]\\]/g, '\\$&')}](${url.replace(/[ ()<>]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)})`;
}

/** A GFM table. Cells are Markdown already; pipes and line breaks are neutralised so a cell stays a cell. */
export function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  // A pipe after an even run of backslashes would end the cell, even inside a code span (GFM).
  const cell = (value: string) =>
    value.replace(/\r?\n/g, ' ').replace(/(\\*)\|/g, (match, slashes: string) => (slashes.length % 2 === 0 ? `${slashes}\\|` : match)) || ' ';
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Joins blocks with blank lines, dropping empty ones. */
export function blocks(...parts: (string | undefined | false | readonly string[])[]): string {
  return parts
    .flat()
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .join('\n\n');
}

/** Removes the `{#id}` heading attributes: Markdown readers get plain headings. */
export function withoutAnchors(markdown: string): string {
  return markdown.replace(/^(#{1,6} .*?) \{#[A-Za-z0-9_.:-]+\}$/gm, '$1');
}
