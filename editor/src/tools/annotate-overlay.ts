/**
 * The selection's outline and handles and the hover outline, drawn on the overlay canvas in CSS
 * pixels: their size on screen stays the same at any zoom. Never part of the export.
 */
import { boundsOf, handlesOf, isBoxKind, isLineKind } from '../model/annotation-geometry.ts';
import type { Measure, Point } from '../model/annotation-geometry.ts';
import type { View } from '../editor.ts';
import type { Annotation } from '../model/edits.ts';

/** A handle's side in CSS pixels. */
export const HANDLE_SIZE = 9;
const ACCENT = '#4f46e5';

function pageMapper(view: View): (p: Point) => Point {
  return (p) => ({ x: view.box.x + (p.x - view.crop.x) * view.scale, y: view.box.y + (p.y - view.crop.y) * view.scale });
}

/** What a click would pick: a soft line along a line, a box around anything else. */
export function drawHover(ctx: CanvasRenderingContext2D, view: View, annotation: Annotation, measure: Measure): void {
  const toPage = pageMapper(view);
  ctx.strokeStyle = ACCENT;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  if (annotation.kind === 'arrow' || annotation.kind === 'line') {
    const a = toPage({ x: annotation.x1, y: annotation.y1 });
    const b = toPage({ x: annotation.x2, y: annotation.y2 });
    ctx.lineWidth = Math.max(2, annotation.width * view.scale + 4);
    ctx.globalAlpha = 0.35;
    ctx.lineCap = 'round';
    ctx.moveTo(a.x, a.y);
    ctx.lineTo(b.x, b.y);
  } else {
    const bounds = boundsOf(annotation, measure);
    const a = toPage(bounds);
    const b = toPage({ x: bounds.x + bounds.width, y: bounds.y + bounds.height });
    ctx.rect(a.x - 2.5, a.y - 2.5, b.x - a.x + 5, b.y - a.y + 5);
  }
  ctx.stroke();
  ctx.globalAlpha = 1;
}

/** A dashed outline (not for lines), then the handles unless a text is being typed. */
export function drawSelection(ctx: CanvasRenderingContext2D, view: View, annotation: Annotation, measure: Measure, withHandles: boolean): void {
  const toPage = pageMapper(view);
  ctx.lineWidth = 1;
  if (!isLineKind(annotation.kind)) {
    const bounds = boundsOf(annotation, measure);
    const a = toPage(bounds);
    const b = toPage({ x: bounds.x + bounds.width, y: bounds.y + bounds.height });
    const pad = isBoxKind(annotation.kind) ? 0 : 3;
    const rect = [a.x - pad - 0.5, a.y - pad - 0.5, b.x - a.x + 2 * pad + 1, b.y - a.y + 2 * pad + 1] as const;
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = '#ffffff';
    ctx.strokeRect(...rect);
    ctx.strokeStyle = ACCENT;
    ctx.lineDashOffset = 3.5;
    ctx.strokeRect(...rect);
    ctx.setLineDash([]);
  }
  if (!withHandles) return;
  for (const handle of handlesOf(annotation, measure)) {
    const p = toPage(handle);
    ctx.beginPath();
    if (isLineKind(annotation.kind)) ctx.arc(p.x, p.y, HANDLE_SIZE / 2 + 1, 0, Math.PI * 2);
    else ctx.rect(Math.round(p.x - HANDLE_SIZE / 2) + 0.5, Math.round(p.y - HANDLE_SIZE / 2) + 0.5, HANDLE_SIZE, HANDLE_SIZE);
    ctx.fillStyle = '#ffffff';
    ctx.fill();
    ctx.strokeStyle = ACCENT;
    ctx.lineWidth = 1.5;
    ctx.stroke();
  }
}
