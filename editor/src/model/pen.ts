/** A freehand stroke's arithmetic, in source layout pixels: thinning the pointer's samples, bounds and distance. */
import type { Point, Rect as Box } from './layout.ts';

/** The stroke's points as pairs. */
export function penPoints(flat: readonly number[]): Point[] {
  const points: Point[] = [];
  for (let index = 0; index + 1 < flat.length; index += 2) points.push({ x: flat[index]!, y: flat[index + 1]! });
  return points;
}

export function flatten(points: readonly Point[]): number[] {
  return points.flatMap((p) => [Math.round(p.x * 100) / 100, Math.round(p.y * 100) / 100]);
}

export function penBox(flat: readonly number[]): Box {
  const points = penPoints(flat);
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.min(1, Math.max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** The nearest distance from `p` to the stroke's polyline. */
export function distanceToStroke(flat: readonly number[], p: Point): number {
  const points = penPoints(flat);
  if (points.length === 1) return Math.hypot(p.x - points[0]!.x, p.y - points[0]!.y);
  let best = Infinity;
  for (let index = 1; index < points.length; index += 1) best = Math.min(best, distanceToSegment(p, points[index - 1]!, points[index]!));
  return best;
}

/**
 * Ramer–Douglas–Peucker: drops samples within `tolerance` of the line their neighbours make, so a
 * jittery drag keeps its shape in few points, which the drawing then joins with smooth curves.
 */
export function simplify(points: readonly Point[], tolerance: number): Point[] {
  if (points.length <= 2) return [...points];
  const first = points[0]!;
  const last = points[points.length - 1]!;
  let farthest = 0;
  let at = 0;
  for (let index = 1; index < points.length - 1; index += 1) {
    const distance = distanceToSegment(points[index]!, first, last);
    if (distance > farthest) {
      farthest = distance;
      at = index;
    }
  }
  if (farthest <= tolerance) return [first, last];
  return [...simplify(points.slice(0, at + 1), tolerance).slice(0, -1), ...simplify(points.slice(at), tolerance)];
}

/** The stroke scaled from box `from` to box `to` (a resize by a handle). */
export function rescaled(flat: readonly number[], from: Box, to: Box): number[] {
  const sx = from.width > 0 ? to.width / from.width : 1;
  const sy = from.height > 0 ? to.height / from.height : 1;
  return flatten(penPoints(flat).map((p) => ({ x: to.x + (p.x - from.x) * sx, y: to.y + (p.y - from.y) * sy })));
}

/** Moved by (dx, dy). */
export function shifted(flat: readonly number[], dx: number, dy: number): number[] {
  return flat.map((value, index) => Math.round((value + (index % 2 === 0 ? dx : dy)) * 100) / 100);
}
