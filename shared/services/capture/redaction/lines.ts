/** Drawn pieces joined as a reader reads them (full-width ＠ read as @), each character keeping where it came from. */
import type { Piece } from '#shared/services/capture/redaction/drawn-text.ts';
import type { Rect } from '#shared/services/capture/redaction/snapshot-tree.ts';

export interface Joined {
  text: string;
  /** For each UTF-16 unit of `text`: the piece it was read from (-1 for a separator) and its index in that piece's text. */
  piece: Int32Array;
  offset: Int32Array;
}

/** The part of one piece a finding covers: `text.slice(start, end)` of the piece. */
export interface PiecePart {
  piece: number;
  start: number;
  end: number;
}

// Zero-width space and joiners, soft hyphen, word joiner, bidi marks and controls, variation selectors, BOM.
const DRAWS_NOTHING = /^\p{Default_Ignorable_Code_Point}$/u;
const SPACE = /^\s$/u;

/** Pieces closer than this (a share of their height) touch: one word split over elements or letters. */
const TOUCH = 0.15;
/** Pieces further apart than this on one line (table columns, a layout's two sides) are read as apart as lines. */
const APART = 3;

/** Two boxes on one visual line: they share at least half the shorter one's height. */
export function sameLine(a: Rect, b: Rect): boolean {
  return Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) >= Math.min(a.height, b.height) / 2;
}

/** Consecutive pieces of one document on one visual line; a form field's text and a line break stand alone. */
function visualLines(pieces: readonly Piece[]): number[][] {
  const lines: number[][] = [];
  let line: number[] | undefined;
  pieces.forEach((piece, index) => {
    const last = line && pieces[line.at(-1)!]!;
    if (line && last && !piece.field && !last.field && !piece.hardBreak && !last.hardBreak && last.document === piece.document && sameLine(last.box, piece.box))
      line.push(index);
    else lines.push((line = [index]));
  });
  return lines;
}

/** A line that continues the word the line before ended with: the same text node, wrapped inside a word. */
function wrapsWord(before: Piece, after: Piece): boolean {
  return (
    before.backendNodeId !== undefined &&
    before.document === after.document &&
    before.node === after.node &&
    after.start === before.start + before.text.length &&
    !/\s$/u.test(before.text) &&
    !/^\s/u.test(after.text)
  );
}

export function joinPieces(pieces: readonly Piece[]): Joined {
  const units: string[] = [];
  const from: number[] = [];
  const at: number[] = [];
  const emit = (unit: string, piece: number, offset: number) => {
    // White space collapses, and never starts a line.
    if (unit === ' ' && (units.length === 0 || units.at(-1) === ' ' || units.at(-1) === '\n')) return;
    if (unit === '\n' && units.at(-1) === ' ') {
      units.pop();
      from.pop();
      at.pop();
    }
    units.push(unit);
    from.push(piece);
    at.push(offset);
  };
  const separate = (separator: string) => {
    if (separator && units.length > 0 && units.at(-1) !== '\n') emit(separator, -1, -1);
  };
  const lines = visualLines(pieces);
  lines.forEach((line, n) => {
    const previous = lines[n - 1];
    if (previous) separate(wrapsWord(pieces[previous.at(-1)!]!, pieces[line[0]!]!) ? '' : '\n');
    const ordered = [...line].sort((a, b) => pieces[a]!.box.x - pieces[b]!.box.x);
    ordered.forEach((index, k) => {
      const piece = pieces[index]!;
      if (k > 0) {
        const left = pieces[ordered[k - 1]!]!;
        const gap = piece.box.x - (left.box.x + left.box.width);
        const height = Math.min(left.box.height, piece.box.height);
        // Table cells are read apart, however close: a row is columns, not one sentence.
        if (left.cell !== piece.cell) separate('\n');
        else separate(gap <= TOUCH * height ? '' : gap <= APART * height ? ' ' : '\n');
      }
      for (const [char, offset] of drawnCharacters(piece)) {
        if (SPACE.test(char)) emit(' ', index, offset);
        else for (const unit of char.normalize('NFKC')) for (let i = 0; i < unit.length; i += 1) emit(unit[i]!, index, offset);
      }
    });
  });
  return { text: units.join(''), piece: Int32Array.from(from), offset: Int32Array.from(at) };
}

/** A piece's characters in the order they are drawn, left to right, with their index in its text; those that draw nothing left out. */
function drawnCharacters(piece: Piece): [string, number][] {
  if (piece.hardBreak) return [];
  const characters: [string, number][] = [];
  let offset = 0;
  for (const char of piece.text) {
    if (!DRAWS_NOTHING.test(char)) characters.push([char, offset]);
    offset += char.length;
  }
  return piece.reversed ? characters.reverse() : characters;
}

/** What of each piece the joined text's `[start, end)` covers, in the order the pieces are first met. */
export function partsOf(joined: Joined, pieces: readonly Piece[], start: number, end: number): PiecePart[] {
  const parts = new Map<number, PiecePart>();
  for (let i = start; i < end; i += 1) {
    const index = joined.piece[i]!;
    if (index < 0) continue;
    const offset = joined.offset[i]!;
    const after = offset + ((pieces[index]!.text.codePointAt(offset) ?? 0) > 0xffff ? 2 : 1);
    const part = parts.get(index);
    if (part) {
      part.start = Math.min(part.start, offset);
      part.end = Math.max(part.end, after);
    } else parts.set(index, { piece: index, start: offset, end: after });
  }
  return [...parts.values()];
}
