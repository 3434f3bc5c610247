/**
 * What is drawn over the source and how it is cut, in the source's layout pixels: annotations stay
 * in place and sharp at any export scale, and the source itself is never changed.
 */
import type { Rect } from './layout.ts';

/** Drawn from (x1, y1) to (x2, y2); for boxes, the corners. */
export interface ShapeAnnotation {
  id: string;
  kind: 'arrow' | 'line' | 'rect' | 'ellipse' | 'highlight' | 'blur' | 'pixelate';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** #rrggbb; redactions ignore it. */
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
