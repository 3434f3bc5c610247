/** Draws annotations in source coordinates onto a context already transformed to them. */
import type { Annotation } from './edits.ts';

/**
 * `redraw` paints the source again (into any context with the same transform), for redactions
 * that blur or pixelate what lies under them.
 */
export function drawAnnotations(ctx: CanvasRenderingContext2D, annotations: readonly Annotation[], redraw: (target: CanvasRenderingContext2D) => void): void {
  void ctx;
  void annotations;
  void redraw;
}
