/** The pure geometry of annotations, in source layout pixels: bounds, hit-testing, handles, resizing, moving, step numbers. */
import type { Annotation, ShapeAnnotation, StepAnnotation, TextAnnotation } from './edits.ts';
import type { Point, Rect } from './layout.ts';
import { distanceToStroke, penBox, rescaled, shifted } from './pen.ts';

export type { Point };
export type Box = Rect;

export type Handle = 'start' | 'end' | 'nw' | 'n' | 'ne' | 'e' | 'se' | 's' | 'sw' | 'w';

/** Width of `text` in `font` (a canvas font string); the page measures with a canvas, tests with a stand-in. */
export type Measure = (text: string, font: string) => number;

export const ANNOTATION_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
export const TEXT_LINE_HEIGHT = 1.25;
export const MIN_TEXT_SIZE = 8;
export const MIN_STEP_SIZE = 12;
export const MAX_SIZE = 400;

const BOX_KINDS: ReadonlySet<string> = new Set(['rect', 'ellipse', 'highlight', 'blur', 'pixelate', 'solid']);

export function isBoxKind(kind: string): kind is 'rect' | 'ellipse' | 'highlight' | 'blur' | 'pixelate' | 'solid' {
  return BOX_KINDS.has(kind);
}

export function isLineKind(kind: string): kind is 'arrow' | 'line' {
  return kind === 'arrow' || kind === 'line';
}

export function isRedaction(annotation: Annotation): boolean {
  return annotation.kind === 'blur' || annotation.kind === 'pixelate' || annotation.kind === 'solid';
}

export function textFont(annotation: Pick<TextAnnotation, 'size' | 'weight'>): string {
  return `${annotation.weight} ${annotation.size}px ${ANNOTATION_FONT}`;
}

export function textLines(annotation: Pick<TextAnnotation, 'text'>): string[] {
  return annotation.text.split('\n');
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A shape's corners as a box with positive width and height. */
export function shapeBox(shape: Pick<ShapeAnnotation, 'x1' | 'y1' | 'x2' | 'y2'>): Box {
  return { x: Math.min(shape.x1, shape.x2), y: Math.min(shape.y1, shape.y2), width: Math.abs(shape.x2 - shape.x1), height: Math.abs(shape.y2 - shape.y1) };
}

/** The box an annotation covers, without its stroke. */
export function boundsOf(annotation: Annotation, measure: Measure): Box {
  switch (annotation.kind) {
    case 'text': {
      const font = textFont(annotation);
      const lines = textLines(annotation);
      const width = Math.max(annotation.size / 2, ...lines.map((line) => measure(line, font)));
      return { x: annotation.x, y: annotation.y, width, height: lines.length * annotation.size * TEXT_LINE_HEIGHT };
    }
    case 'step':
      return { x: annotation.x - annotation.size / 2, y: annotation.y - annotation.size / 2, width: annotation.size, height: annotation.size };
    case 'pen':
      return penBox(annotation.points);
    default:
      return shapeBox(annotation);
  }
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / length, 0, 1);
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

function inBox(p: Point, box: Box, margin: number): boolean {
  return p.x >= box.x - margin && p.x <= box.x + box.width + margin && p.y >= box.y - margin && p.y <= box.y + box.height + margin;
}

/**
 * Whether `p` picks the annotation. Outlines (rectangle, ellipse) are picked on their stroke, so
 * what they surround stays reachable; filled kinds anywhere inside. `tolerance` is in source pixels.
 */
export function hitTest(annotation: Annotation, p: Point, tolerance: number, measure: Measure): boolean {
  switch (annotation.kind) {
    case 'arrow':
    case 'line':
      return distanceToSegment(p, { x: annotation.x1, y: annotation.y1 }, { x: annotation.x2, y: annotation.y2 }) <= annotation.width / 2 + tolerance;
    case 'rect': {
      const box = shapeBox(annotation);
      const reach = annotation.width / 2 + tolerance;
      const inner = { x: box.x + reach, y: box.y + reach, width: box.width - 2 * reach, height: box.height - 2 * reach };
      return inBox(p, box, reach) && !(inner.width > 0 && inner.height > 0 && inBox(p, inner, 0));
    }
    case 'ellipse': {
      const box = shapeBox(annotation);
      const rx = box.width / 2;
      const ry = box.height / 2;
      const cx = box.x + rx;
      const cy = box.y + ry;
      if (rx < 1 || ry < 1) return inBox(p, box, annotation.width / 2 + tolerance);
      const angle = Math.atan2((p.y - cy) / ry, (p.x - cx) / rx);
      const onCurve = { x: cx + rx * Math.cos(angle), y: cy + ry * Math.sin(angle) };
      return Math.hypot(p.x - onCurve.x, p.y - onCurve.y) <= annotation.width / 2 + tolerance;
    }
    case 'step':
      return Math.hypot(p.x - annotation.x, p.y - annotation.y) <= annotation.size / 2 + tolerance;
    case 'pen':
      return distanceToStroke(annotation.points, p) <= annotation.width / 2 + tolerance;
    default:
      return inBox(p, boundsOf(annotation, measure), tolerance);
  }
}

/** The annotation drawn last among those under `p`. */
export function topmostAt(annotations: readonly Annotation[], p: Point, tolerance: number, measure: Measure): Annotation | undefined {
  for (let index = annotations.length - 1; index >= 0; index -= 1) {
    const annotation = annotations[index]!;
    if (hitTest(annotation, p, tolerance, measure)) return annotation;
  }
  return undefined;
}

/** Where an annotation's resize handles are: line ends, a box's corners and edge middles, one corner for text and steps. */
export function handlesOf(annotation: Annotation, measure: Measure): { handle: Handle; x: number; y: number }[] {
  if (annotation.kind === 'arrow' || annotation.kind === 'line') {
    return [
      { handle: 'start', x: annotation.x1, y: annotation.y1 },
      { handle: 'end', x: annotation.x2, y: annotation.y2 },
    ];
  }
  const box = boundsOf(annotation, measure);
  const right = box.x + box.width;
  const bottom = box.y + box.height;
  if (annotation.kind === 'text' || annotation.kind === 'step') return [{ handle: 'se', x: right, y: bottom }];
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return [
    { handle: 'nw', x: box.x, y: box.y },
    { handle: 'n', x: cx, y: box.y },
    { handle: 'ne', x: right, y: box.y },
    { handle: 'e', x: right, y: cy },
    { handle: 'se', x: right, y: bottom },
    { handle: 's', x: cx, y: bottom },
    { handle: 'sw', x: box.x, y: bottom },
    { handle: 'w', x: box.x, y: cy },
  ];
}

/** The handle under `p`, the nearest when several are. */
export function handleAt(annotation: Annotation, p: Point, tolerance: number, measure: Measure): Handle | undefined {
  let best: Handle | undefined;
  let bestDistance = Infinity;
  for (const { handle, x, y } of handlesOf(annotation, measure)) {
    const distance = Math.max(Math.abs(p.x - x), Math.abs(p.y - y));
    if (distance <= tolerance && distance < bestDistance) {
      best = handle;
      bestDistance = distance;
    }
  }
  return best;
}

/** Snaps `end` to the nearest 45° from `start` (Shift while drawing a line). */
export function snapAngle(start: Point, end: Point): Point {
  const length = Math.hypot(end.x - start.x, end.y - start.y);
  const angle = Math.round(Math.atan2(end.y - start.y, end.x - start.x) / (Math.PI / 4)) * (Math.PI / 4);
  return { x: start.x + Math.round(length * Math.cos(angle) * 1000) / 1000, y: start.y + Math.round(length * Math.sin(angle) * 1000) / 1000 };
}

/** Makes `end` the corner of a square from `start` (Shift while drawing a box). */
export function squareCorner(start: Point, end: Point): Point {
  const side = Math.max(Math.abs(end.x - start.x), Math.abs(end.y - start.y));
  return { x: start.x + Math.sign(end.x - start.x || 1) * side, y: start.y + Math.sign(end.y - start.y || 1) * side };
}

/** Boxes keep x1 ≤ x2 and y1 ≤ y2, so a handle's name always matches its corner. */
export function normalised<T extends ShapeAnnotation>(shape: T): T {
  if (!isBoxKind(shape.kind)) return shape;
  const box = shapeBox(shape);
  return { ...shape, x1: box.x, y1: box.y, x2: box.x + box.width, y2: box.y + box.height };
}

/**
 * The annotation as it was when the drag began (`start`) with `handle` dragged to `p`. Boxes flip
 * when a handle crosses the opposite edge; `square` keeps a box square and a line at 45° steps.
 */
export function resized(start: Annotation, handle: Handle, p: Point, measure: Measure, square = false): Annotation {
  switch (start.kind) {
    case 'text': {
      const box = boundsOf(start, measure);
      const ratio = box.height > 0 ? (p.y - box.y) / box.height : 1;
      return { ...start, size: Math.round(clamp(start.size * ratio, MIN_TEXT_SIZE, MAX_SIZE)) };
    }
    case 'step': {
      const radius = Math.max(Math.abs(p.x - start.x), Math.abs(p.y - start.y));
      return { ...start, size: Math.round(clamp(2 * radius, MIN_STEP_SIZE, MAX_SIZE)) };
    }
    case 'arrow':
    case 'line': {
      if (handle === 'start') {
        const end = { x: start.x2, y: start.y2 };
        const moved = square ? snapAngle(end, p) : p;
        return { ...start, x1: moved.x, y1: moved.y };
      }
      const origin = { x: start.x1, y: start.y1 };
      const moved = square ? snapAngle(origin, p) : p;
      return { ...start, x2: moved.x, y2: moved.y };
    }
    case 'pen': {
      const from = penBox(start.points);
      const to = resized(
        { id: '', kind: 'rect', x1: from.x, y1: from.y, x2: from.x + from.width, y2: from.y + from.height, color: '', width: 0 },
        handle,
        p,
        measure,
        square,
      );
      return { ...start, points: rescaled(start.points, from, shapeBox(to as ShapeAnnotation)) };
    }
    default: {
      const box = shapeBox(start);
      let left = box.x;
      let top = box.y;
      let right = box.x + box.width;
      let bottom = box.y + box.height;
      if (handle.includes('w')) left = p.x;
      if (handle.includes('e')) right = p.x;
      if (handle === 'n' || handle === 'nw' || handle === 'ne') top = p.y;
      if (handle === 's' || handle === 'sw' || handle === 'se') bottom = p.y;
      if (square && handle.length === 2) {
        // The corner opposite the handle stays put.
        const anchor = { x: handle.includes('w') ? right : left, y: handle.startsWith('n') ? bottom : top };
        const corner = squareCorner(anchor, p);
        return normalised({ ...start, x1: anchor.x, y1: anchor.y, x2: corner.x, y2: corner.y });
      }
      return normalised({ ...start, x1: left, y1: top, x2: right, y2: bottom });
    }
  }
}

/** Moved by (dx, dy): a drag or an arrow-key nudge. */
export function moved<T extends Annotation>(annotation: T, dx: number, dy: number): T {
  if (annotation.kind === 'text' || annotation.kind === 'step') return { ...annotation, x: annotation.x + dx, y: annotation.y + dy };
  if (annotation.kind === 'pen') return { ...annotation, points: shifted(annotation.points, dx, dy) };
  const shape = annotation as ShapeAnnotation;
  return { ...annotation, x1: shape.x1 + dx, y1: shape.y1 + dy, x2: shape.x2 + dx, y2: shape.y2 + dy };
}

/** An arrow key's nudge: one pixel, ten with Shift. */
export function nudgeOf(key: string, shift: boolean): Point | undefined {
  const step = shift ? 10 : 1;
  const offsets: Record<string, Point> = {
    ArrowLeft: { x: -step, y: 0 },
    ArrowRight: { x: step, y: 0 },
    ArrowUp: { x: 0, y: -step },
    ArrowDown: { x: 0, y: step },
  };
  return offsets[key];
}

/** Steps count 1, 2, 3… in drawing order, so removing one closes the gap. */
export function renumberSteps(annotations: readonly Annotation[]): Annotation[] {
  let n = 0;
  return annotations.map((annotation) => {
    if (annotation.kind !== 'step') return annotation;
    n += 1;
    return annotation.n === n ? annotation : ({ ...annotation, n } satisfies StepAnnotation);
  });
}

/** The number a new step marker takes. */
export function nextStepNumber(annotations: readonly Annotation[]): number {
  return annotations.filter((annotation) => annotation.kind === 'step').length + 1;
}

/** Whether a drawn shape is big enough to keep (a click without a drag draws nothing). */
export function isDrawn(shape: Pick<ShapeAnnotation, 'x1' | 'y1' | 'x2' | 'y2'>, minimum: number): boolean {
  return Math.hypot(shape.x2 - shape.x1, shape.y2 - shape.y1) >= minimum;
}
