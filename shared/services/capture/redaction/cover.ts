/** Findings as the solid boxes painted over them: where each part is drawn, with its ink, then in the picture's pixels. */
import type { Redaction, RedactKind } from '#shared/schemas/redaction.ts';
import type { Piece } from '#shared/services/capture/redaction/drawn-text.ts';
import { sameLine } from '#shared/services/capture/redaction/lines.ts';
import type { PiecePart } from '#shared/services/capture/redaction/lines.ts';
import { intersect } from '#shared/services/capture/redaction/snapshot-tree.ts';
import type { Rect } from '#shared/services/capture/redaction/snapshot-tree.ts';

/** A finding's rects in document CSS px of the top page, ink and clip applied. */
export interface CoveredFinding {
  kind: RedactKind;
  rects: Rect[];
}

/** Where a part of a text node is drawn, as the page measured it: the part's rect and the whole box's, in one frame of reference. */
export interface Measured {
  part: Rect;
  box: Rect;
}

const INK_FREE = /[\s\p{Default_Ignorable_Code_Point}]/gu;

/** Whether a part holds every drawn character of its piece, so the piece's box is the part's. */
export function coversPiece(part: PiecePart, piece: Piece): boolean {
  return piece.text.slice(0, part.start).replace(INK_FREE, '') === '' && piece.text.slice(part.end).replace(INK_FREE, '') === '';
}

/** Whether only the page can say where a part is drawn: part of a text node's run, not all it draws. */
export function needsMeasure(part: PiecePart, piece: Piece): boolean {
  return !piece.whole && !coversPiece(part, piece);
}

/** A measured part moved into its piece's box by its share of the line box; undefined when it does not fit (the whole box is then covered). */
export function placePart(box: Rect, measured: Measured): Rect | undefined {
  const { part, box: whole } = measured;
  if (!(whole.width > 0) || !(part.width > 0)) return undefined;
  const across = box.width / whole.width;
  const x = box.x + (part.x - whole.x) * across;
  const width = part.width * across;
  if (x < box.x - 1 || x + width > box.x + box.width + 1) return undefined;
  return { x, y: box.y, width, height: box.height };
}

/** A finding's rect on each piece it touches: the part's (or the piece's whole box), grown by the ink, cut to what can show. */
export function findingRects(parts: readonly PiecePart[], pieces: readonly Piece[], measured: (part: PiecePart) => Rect | undefined): Rect[] {
  const rects: Rect[] = [];
  for (const part of parts) {
    const piece = pieces[part.piece]!;
    const drawn = (needsMeasure(part, piece) && measured(part)) || piece.box;
    const { ink } = piece;
    const grown = { x: drawn.x - ink.left, y: drawn.y - ink.top, width: drawn.width + ink.left + ink.right, height: drawn.height + ink.top + ink.bottom };
    const shown = intersect(grown, piece.clip);
    if (shown.width > 0 && shown.height > 0) rects.push(shown);
  }
  return rects;
}

/** The boxes to paint in image px: a finding's rects on one line joined, cut to `area` (document CSS px, drawn at `size`), rounded outwards. */
export function imageBoxes(findings: readonly CoveredFinding[], area: Rect, size: { width: number; height: number }): Redaction[] {
  const across = size.width / area.width;
  const down = size.height / area.height;
  const out: Redaction[] = [];
  for (const { kind, rects } of findings) {
    const lines: Rect[] = [];
    for (const rect of [...rects].sort((a, b) => a.y - b.y || a.x - b.x)) {
      const line = lines.find((known) => sameLine(known, rect));
      if (!line) {
        lines.push({ ...rect });
        continue;
      }
      const right = Math.max(line.x + line.width, rect.x + rect.width);
      const bottom = Math.max(line.y + line.height, rect.y + rect.height);
      line.x = Math.min(line.x, rect.x);
      line.y = Math.min(line.y, rect.y);
      line.width = right - line.x;
      line.height = bottom - line.y;
    }
    for (const line of lines) {
      const shown = intersect(line, area);
      if (shown.width <= 0 || shown.height <= 0) continue;
      const x = Math.max(0, Math.floor((shown.x - area.x) * across));
      const y = Math.max(0, Math.floor((shown.y - area.y) * down));
      const right = Math.min(size.width, Math.ceil((shown.x + shown.width - area.x) * across));
      const bottom = Math.min(size.height, Math.ceil((shown.y + shown.height - area.y) * down));
      if (right > x && bottom > y) out.push({ kind, x, y, width: right - x, height: bottom - y });
    }
  }
  return out;
}

/** Both lists' boxes once each, in order: what two reads of the page (before and after the picture) cover together. */
export function unionOf(first: readonly Redaction[], second: readonly Redaction[]): Redaction[] {
  const seen = new Set<string>();
  return [...first, ...second].filter((box) => {
    const key = `${box.kind} ${box.x} ${box.y} ${box.width} ${box.height}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
