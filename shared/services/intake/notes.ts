/** Release notes (Markdown, as GitHub renders them) as plain text, their first paragraph or sentence, and the URLs they link to. */
import { decodeHTML } from 'entities/decode';
import { Lexer, type Token, type Tokens } from 'marked';

export const TITLE_MAX = 160;
export const BENEFIT_MAX = 500;
export const DESCRIPTION_MAX = 10_000;

/** A `<` an HTML parser would read as markup becomes `‹`, so code in a note (`Array<string>`) stays plain text the contract accepts. */
const TAG_START = /<(?=[A-Za-z/!?])/g;
const plain = (text: string) => decodeHTML(text).replace(TAG_START, '‹');
/** What raw HTML in the notes says, its tags dropped (a details block's text stays). */
const htmlText = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/[ \t]+/g, ' ');

function inline(tokens: readonly Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => {
      switch (token.type) {
        case 'html':
          return '';
        case 'br':
          return '\n';
        case 'image':
          return (token as Tokens.Image).text;
        case 'codespan':
          return (token as Tokens.Codespan).text;
        default:
          return 'tokens' in token && token.tokens ? inline(token.tokens) : 'text' in token ? String(token.text) : '';
      }
    })
    .join('');
}

/** Each block's text: a list item on a line of its own, a table row's cells apart. */
function blocks(tokens: readonly Token[]): { kind: string; text: string }[] {
  return tokens.flatMap((token): { kind: string; text: string }[] => {
    switch (token.type) {
      case 'space':
      case 'hr':
      case 'def':
        return [];
      case 'html':
        return [{ kind: 'html', text: htmlText((token as Tokens.HTML).text) }];
      case 'code':
        return [{ kind: 'code', text: (token as Tokens.Code).text }];
      case 'list':
        return [
          {
            kind: 'list',
            text: (token as Tokens.List).items
              .map(
                (item) =>
                  `- ${blocks(item.tokens)
                    .map((block) => block.text)
                    .join(' ')}`,
              )
              .join('\n'),
          },
        ];
      case 'blockquote':
        return blocks((token as Tokens.Blockquote).tokens);
      case 'table': {
        const table = token as Tokens.Table;
        const row = (cells: Tokens.TableCell[]) => cells.map((cell) => inline(cell.tokens)).join(' | ');
        return [{ kind: 'table', text: [row(table.header), ...table.rows.map(row)].join('\n') }];
      }
      default:
        return [{ kind: token.type, text: 'tokens' in token && token.tokens ? inline(token.tokens) : 'text' in token ? String(token.text) : '' }];
    }
  });
}

/** Every link's target, autolinks and bare URLs included, in order. */
function linkTargets(tokens: readonly Token[]): string[] {
  const found: string[] = [];
  const walk = (list: readonly Token[] | undefined) => {
    for (const token of list ?? []) {
      if (token.type === 'link') found.push((token as Tokens.Link).href);
      if (token.type === 'list') for (const item of (token as Tokens.List).items) walk(item.tokens);
      if (token.type === 'table') for (const cell of [...(token as Tokens.Table).header, ...(token as Tokens.Table).rows.flat()]) walk(cell.tokens);
      if ('tokens' in token) walk(token.tokens);
    }
  };
  walk(tokens);
  return found;
}

/** At most `max` characters, cut at a word where one is near, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  return `${(space > max / 2 ? room.slice(0, space) : room).trimEnd()}…`;
}

const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });

/** The first paragraph when it fits, else its first sentence, else that sentence cut. */
function benefitOf(paragraph: string): string {
  if (paragraph.length <= BENEFIT_MAX) return paragraph;
  const first = SENTENCES.segment(paragraph)[Symbol.iterator]().next().value?.segment.trim() ?? paragraph;
  return clip(first, BENEFIT_MAX);
}

export interface ReadNotes {
  /** The notes as plain text, at most 10,000 characters; undefined when they say nothing. */
  description?: string;
  /** Their first paragraph (else their first block), or its first sentence; undefined when they say nothing. */
  benefitStatement?: string;
  /** The URLs they link to, in order, each once. */
  urls: string[];
}

export function readNotes(markdown: string): ReadNotes {
  const tokens = Lexer.lex(markdown, { gfm: true });
  const texts = blocks(tokens)
    .map((block) => ({ ...block, text: plain(block.text).trim() }))
    .filter((block) => block.text !== '');
  const description = clip(texts.map((block) => block.text).join('\n\n'), DESCRIPTION_MAX);
  const lead = texts.find((block) => block.kind === 'paragraph') ?? texts.find((block) => block.kind !== 'code');
  return {
    ...(description ? { description } : {}),
    ...(lead ? { benefitStatement: benefitOf(lead.text.replace(/\s+/g, ' ')) } : {}),
    urls: [...new Set(linkTargets(tokens))],
  };
}
