/**
 * The document's transitions as pure functions over edits: what each annotation command does,
 * apart from the DOM and the history (editor.ts records each result as one undo step).
 */
import { boundsOf, isRedaction, moved, renumberSteps } from './annotation-geometry.ts';
import type { Box, Measure } from './annotation-geometry.ts';
import type { Annotation, Edits } from './edits.ts';
import type { Rect } from './layout.ts';
import { penPoints, flatten } from './pen.ts';

export interface AnnotationStyle {
  color: string;
  /** Stroke width; a step marker's size follows it. */
  width: number;
  size: number;
  weight: 400 | 700;
}

/** A step marker's diameter for a stroke width. */
export function stepSize(width: number): number {
  return 20 + width * 3;
}

export function findAnnotation(edits: Edits, id: string | undefined): Annotation | undefined {
  return id === undefined ? undefined : edits.annotations.find((annotation) => annotation.id === id);
}

export function addAnnotation(edits: Edits, annotation: Annotation): Edits {
  return { ...edits, annotations: renumberSteps([...edits.annotations, annotation]) };
}

export function replaceAnnotation(edits: Edits, annotation: Annotation): Edits {
  return { ...edits, annotations: edits.annotations.map((entry) => (entry.id === annotation.id ? annotation : entry)) };
}

/** Step markers after it close the gap. */
export function removeAnnotation(edits: Edits, id: string): Edits {
  return { ...edits, annotations: renumberSteps(edits.annotations.filter((entry) => entry.id !== id)) };
}

/** A copy offset down and to the right, under `newId`; a step marker's copy takes the next number. */
export function duplicateAnnotation(edits: Edits, id: string, newId: string, offset: number): Edits {
  const annotation = findAnnotation(edits, id);
  return annotation ? addAnnotation(edits, { ...moved(annotation, offset, offset), id: newId }) : edits;
}

/** The previous or next annotation in drawing order, round the ends; the first or last when none is selected. */
export function adjacentAnnotation(edits: Edits, selected: string | undefined, step: 1 | -1): string | undefined {
  const all = edits.annotations;
  if (all.length === 0) return undefined;
  const at = all.findIndex((annotation) => annotation.id === selected);
  const next = at === -1 ? (step === 1 ? 0 : all.length - 1) : (at + step + all.length) % all.length;
  return all[next]!.id;
}

/** The annotation with a style change applied where it has that property; redactions have no colour. */
export function restyled(annotation: Annotation, change: Partial<AnnotationStyle>): Annotation {
  let next: Annotation = annotation;
  if (change.color !== undefined && !isRedaction(annotation)) next = { ...next, color: change.color };
  if (next.kind === 'text') return { ...next, size: change.size ?? next.size, weight: change.weight ?? next.weight };
  if (change.width === undefined) return next;
  return next.kind === 'step' ? { ...next, size: stepSize(change.width) } : { ...next, width: change.width };
}

/** The style a selection lends to the next annotations drawn. */
export function styleOf(annotation: Annotation, style: AnnotationStyle): AnnotationStyle {
  let next = style;
  if (!isRedaction(annotation)) next = { ...next, color: annotation.color };
  if (annotation.kind === 'text') return { ...next, size: annotation.size, weight: annotation.weight };
  return annotation.kind === 'step' ? next : { ...next, width: annotation.width };
}

function clampTo(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

/** A point kept inside the picture. */
export function clampPoint(p: { x: number; y: number }, picture: Rect): { x: number; y: number } {
  return { x: clampTo(p.x, picture.x, picture.x + picture.width), y: clampTo(p.y, picture.y, picture.y + picture.height) };
}

/** What a press on the preview starts. */
export type Press = 'resize' | 'pick' | 'draw' | 'none';

/**
 * The select tool picks, moves and resizes; every other tool starts something new, even on the
 * selection's handle, as in Excalidraw (transform handles only under its selection tool) and
 * tldraw (a shape tool's press always starts a shape). Nothing starts in the margin.
 */
export function pressGesture(tool: string, at: { onHandle: boolean; onPicture: boolean }): Press {
  if (tool === 'select') return at.onHandle ? 'resize' : 'pick';
  return at.onPicture ? 'draw' : 'none';
}

/** Only the select tool resizes, so only it shows the selection's handles. */
export function showsHandles(tool: string): boolean {
  return tool === 'select';
}

/** Whether a point is on the picture (the source after its crop). */
export function onPicture(p: { x: number; y: number }, picture: Rect): boolean {
  return p.x >= picture.x && p.x <= picture.x + picture.width && p.y >= picture.y && p.y <= picture.y + picture.height;
}

/**
 * A drawn annotation clamped to the picture: nothing is stored where no export shows it. Returns
 * undefined when nothing of it is left on the picture.
 */
export function clampToPicture(annotation: Annotation, picture: Rect, measure: Measure): Annotation | undefined {
  const box: Box = boundsOf(annotation, measure);
  const inside = box.x + box.width >= picture.x && box.x <= picture.x + picture.width && box.y + box.height >= picture.y && box.y <= picture.y + picture.height;
  if (!inside) return undefined;
  switch (annotation.kind) {
    case 'text':
    case 'step':
      return { ...annotation, ...clampPoint(annotation, picture) };
    case 'pen':
      return { ...annotation, points: flatten(penPoints(annotation.points).map((p) => clampPoint(p, picture))) };
    default: {
      const a = clampPoint({ x: annotation.x1, y: annotation.y1 }, picture);
      const b = clampPoint({ x: annotation.x2, y: annotation.y2 }, picture);
      return { ...annotation, x1: a.x, y1: a.y, x2: b.x, y2: b.y };
    }
  }
}
