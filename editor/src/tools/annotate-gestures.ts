/** The annotation tools' gestures: which tools drag out a shape, how near counts as a hit, the cursors, and what a drag is. */
import { isLineKind, normalised, snapAngle, squareCorner } from '../model/annotation-geometry.ts';
import type { Handle, Measure, Point } from '../model/annotation-geometry.ts';
import type { Annotation, ShapeAnnotation } from '../model/edits.ts';

/** The tools that drag out a shape; text, step and pen have their own gestures. */
export const SHAPE_TOOLS: ReadonlySet<string> = new Set(['arrow', 'line', 'rect', 'ellipse', 'highlight', 'blur', 'pixelate']);

/** In CSS pixels: how near a pointer must be to pick a shape or a handle, how far to drag before drawing, how far a pen sample may stray when thinned. */
export const PICK_TOLERANCE = 6;
export const HANDLE_TOLERANCE = 9;
export const MIN_DRAG = 4;
export const PEN_TOLERANCE = 0.75;
/** In source pixels. */
export const DUPLICATE_OFFSET = 12;

const measureContext = (() => {
  let ctx: CanvasRenderingContext2D | undefined;
  return () => (ctx ??= document.createElement('canvas').getContext('2d')!);
})();

/** Text width with the canvas's own metrics, as the composition draws it. */
export const measureText: Measure = (text, font) => {
  const ctx = measureContext();
  ctx.font = font;
  return ctx.measureText(text).width;
};

let counter = 0;
export function newId(): string {
  counter += 1;
  return `a${Date.now().toString(36)}${counter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export const CURSORS: Record<Handle, string> = {
  start: 'move',
  end: 'move',
  nw: 'nwse-resize',
  se: 'nwse-resize',
  ne: 'nesw-resize',
  sw: 'nesw-resize',
  n: 'ns-resize',
  s: 'ns-resize',
  e: 'ew-resize',
  w: 'ew-resize',
};

export type Drag =
  | { type: 'draw'; id: string; kind: ShapeAnnotation['kind']; start: Point; client: Point; drawn: boolean }
  | { type: 'pen'; id: string; samples: Point[] }
  | { type: 'move'; id: string; start: Point; original: Annotation }
  | { type: 'resize'; id: string; handle: Handle; original: Annotation };

/** The shape a drag from `drag.start` to `p` draws; Shift snaps a line's angle or squares a box. */
export function shapeOfDrag(
  drag: { id: string; kind: ShapeAnnotation['kind']; start: Point },
  p: Point,
  shift: boolean,
  style: { color: string; width: number },
): ShapeAnnotation {
  const end = shift ? (isLineKind(drag.kind) ? snapAngle(drag.start, p) : squareCorner(drag.start, p)) : p;
  const shape = normalised<ShapeAnnotation>({
    id: drag.id,
    kind: drag.kind,
    x1: drag.start.x,
    y1: drag.start.y,
    x2: end.x,
    y2: end.y,
    color: style.color,
    width: style.width,
  });
  // Lines keep their direction: (x1, y1) is where the drag began.
  return isLineKind(drag.kind) ? { ...shape, x1: drag.start.x, y1: drag.start.y, x2: end.x, y2: end.y } : shape;
}
