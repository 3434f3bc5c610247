/**
 * What is drawn over the source and how it is cut, in the source's layout pixels: annotations stay
 * in place and sharp at any export scale, and the source itself is never changed.
 */
import type { Rect } from './layout.ts';

/** Drawn from (x1, y1) to (x2, y2); for boxes, the corners. */
export interface ShapeAnnotation {
  id: string;
  kind: 'arrow' | 'line' | 'rect' | 'ellipse' | 'highlight' | 'blur' | 'pixelate' | 'solid';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** #rrggbb; redactions (blur, pixelate, solid) ignore it. */
  color: string;
  /** Stroke width in layout pixels. */
  width: number;
}

export interface TextAnnotation {
  id: string;
  kind: 'text';
  /** Top-left of the first line. */
  x: number;
  y: number;
  text: string;
  color: string;
  size: number;
  weight: 400 | 700;
}

export interface StepAnnotation {
  id: string;
  kind: 'step';
  /** Centre. */
  x: number;
  y: number;
  n: number;
  color: string;
  /** Diameter. */
  size: number;
}

/** A freehand stroke: the points as [x0, y0, x1, y1, …], drawn as a smooth curve through them. */
export interface PenAnnotation {
  id: string;
  kind: 'pen';
  points: number[];
  color: string;
  width: number;
}

export type Annotation = ShapeAnnotation | TextAnnotation | StepAnnotation | PenAnnotation;

export interface Edits {
  /** Within the source; null shows all of it. */
  readonly crop: Rect | null;
  /** In drawing order. */
  readonly annotations: readonly Annotation[];
}

export const NO_EDITS: Edits = { crop: null, annotations: [] };

/** The size the rest of the layout works from: the crop's, or the source's. */
export function contentSize(source: { width: number; height: number }, edits: Edits): { width: number; height: number } {
  return edits.crop ? { width: edits.crop.width, height: edits.crop.height } : { width: source.width, height: source.height };
}

const SHAPE_KINDS: readonly string[] = ['arrow', 'line', 'rect', 'ellipse', 'highlight', 'blur', 'pixelate', 'solid'] satisfies ShapeAnnotation['kind'][];
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const text = (value: unknown): value is string => typeof value === 'string';

function rectFrom(raw: unknown): Rect | null | undefined {
  if (raw === null) return null;
  const rect = raw as Partial<Rect> | undefined;
  return rect && finite(rect.x) && finite(rect.y) && finite(rect.width) && finite(rect.height) && rect.width > 0 && rect.height > 0
    ? { x: rect.x, y: rect.y, width: rect.width, height: rect.height }
    : undefined;
}

/** One annotation as kept, or undefined when a field is missing or of the wrong type. */
export function annotationFrom(raw: unknown): Annotation | undefined {
  const a = raw as Record<string, unknown> | null;
  if (typeof a !== 'object' || a === null || !text(a.id) || !text(a.color)) return undefined;
  if (SHAPE_KINDS.includes(a.kind as string)) {
    const { x1, y1, x2, y2, width } = a;
    return finite(x1) && finite(y1) && finite(x2) && finite(y2) && finite(width)
      ? { id: a.id, kind: a.kind as ShapeAnnotation['kind'], x1, y1, x2, y2, color: a.color, width }
      : undefined;
  }
  if (a.kind === 'text') {
    const { x, y, size } = a;
    return finite(x) && finite(y) && finite(size) && text(a.text)
      ? { id: a.id, kind: 'text', x, y, text: a.text, color: a.color, size, weight: a.weight === 400 ? 400 : 700 }
      : undefined;
  }
  if (a.kind === 'step') {
    const { x, y, n, size } = a;
    return finite(x) && finite(y) && finite(n) && finite(size) ? { id: a.id, kind: 'step', x, y, n, color: a.color, size } : undefined;
  }
  if (a.kind === 'pen') {
    const { points, width } = a;
    const valid = Array.isArray(points) && points.length >= 2 && points.length % 2 === 0 && points.every(finite) && finite(width);
    return valid ? { id: a.id, kind: 'pen', points: points as number[], color: a.color, width } : undefined;
  }
  return undefined;
}

/**
 * Edits read back from storage: a broken crop shows the whole source and a broken annotation is
 * left out, so one bad field never loses the rest. Undefined when it is not edits at all.
 */
export function editsFrom(raw: unknown): Edits | undefined {
  const edits = raw as { crop?: unknown; annotations?: unknown } | null;
  if (typeof edits !== 'object' || edits === null || !Array.isArray(edits.annotations)) return undefined;
  const annotations = edits.annotations.map(annotationFrom).filter((annotation) => annotation !== undefined);
  return { crop: rectFrom(edits.crop ?? null) ?? null, annotations };
}
