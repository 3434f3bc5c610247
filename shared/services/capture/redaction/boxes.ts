/** Cover boxes from the page (document CSS px) as the answer's redactions (image px of the PNG). */
import type { Redaction, RedactKind } from '#shared/schemas/redaction.ts';
import type { CoverBox } from '#shared/services/capture/redact-in-page.ts';

interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Rects of one finding on one line: a text split over several elements gives one rect per element. */
function sameLine(a: Area, b: Area): boolean {
  const overlap = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  const gap = b.x - (a.x + a.width);
  return overlap >= Math.min(a.height, b.height) / 2 && gap <= 1 && gap >= -b.width;
}

/**
 * One box per line fragment of each finding, cut to what the picture shows (`area`, document CSS
 * px) and scaled to its pixels, rounded outwards; boxes outside the picture are left out.
 */
export function imageBoxes(boxes: readonly CoverBox[], kinds: readonly RedactKind[], area: Area, scale: number): Redaction[] {
  const sorted = boxes.filter((box) => box.width > 0 && box.height > 0).sort((a, b) => a.finding - b.finding || a.y - b.y || a.x - b.x);
  const merged: CoverBox[] = [];
  for (const box of sorted) {
    const last = merged.at(-1);
    if (last && last.finding === box.finding && sameLine(last, box)) {
      const right = Math.max(last.x + last.width, box.x + box.width);
      const bottom = Math.max(last.y + last.height, box.y + box.height);
      last.x = Math.min(last.x, box.x);
      last.y = Math.min(last.y, box.y);
      last.width = right - last.x;
      last.height = bottom - last.y;
    } else merged.push({ ...box });
  }
  const out: Redaction[] = [];
  for (const box of merged) {
    const left = Math.max(box.x, area.x);
    const top = Math.max(box.y, area.y);
    const right = Math.min(box.x + box.width, area.x + area.width);
    const bottom = Math.min(box.y + box.height, area.y + area.height);
    if (right <= left || bottom <= top) continue;
    const x = Math.floor((left - area.x) * scale);
    const y = Math.floor((top - area.y) * scale);
    out.push({ kind: kinds[box.finding]!, x, y, width: Math.ceil((right - area.x) * scale) - x, height: Math.ceil((bottom - area.y) * scale) - y });
  }
  return out;
}
