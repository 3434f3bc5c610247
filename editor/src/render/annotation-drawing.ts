/** Draws annotations in source coordinates onto a context already transformed to them. */
import { ANNOTATION_FONT, isRedaction, shapeBox, TEXT_LINE_HEIGHT, textFont, textLines } from '../model/annotation-geometry.ts';
import type { Box } from '../model/annotation-geometry.ts';
import type { Annotation, PenAnnotation, ShapeAnnotation, StepAnnotation, TextAnnotation } from '../model/edits.ts';

/** Pixelation blocks and blur radius in source pixels: coarse enough that text under them cannot be read. */
export const PIXEL_BLOCK = 12;
export const BLUR_RADIUS = 9;
export const HIGHLIGHT_ALPHA = 0.4;
/** A solid redaction's fill, the capture's own (docs/capture.md, "Redaction"). */
export const SOLID_COLOUR = '#000000';

/**
 * `redraw` paints the source again (into any context with the same transform), for redactions
 * that blur or pixelate what lies under them. Redactions go first, so they hide only the source
 * and never another annotation.
 */
export function drawAnnotations(ctx: CanvasRenderingContext2D, annotations: readonly Annotation[], redraw: (target: CanvasRenderingContext2D) => void): void {
  for (const annotation of annotations) {
    if (isRedaction(annotation)) redact(ctx, annotation as ShapeAnnotation, redraw);
  }
  for (const annotation of annotations) {
    if (!isRedaction(annotation)) drawAnnotation(ctx, annotation);
  }
}

/** One annotation that is not a redaction. */
export function drawAnnotation(ctx: CanvasRenderingContext2D, annotation: Annotation): void {
  ctx.save();
  switch (annotation.kind) {
    case 'text':
      drawText(ctx, annotation);
      break;
    case 'step':
      drawStep(ctx, annotation);
      break;
    case 'arrow':
      drawArrow(ctx, annotation);
      break;
    case 'line':
      strokeWith(ctx, annotation);
      ctx.beginPath();
      ctx.moveTo(annotation.x1, annotation.y1);
      ctx.lineTo(annotation.x2, annotation.y2);
      ctx.stroke();
      break;
    case 'rect': {
      const box = shapeBox(annotation);
      strokeWith(ctx, annotation);
      ctx.beginPath();
      ctx.roundRect(box.x, box.y, box.width, box.height, Math.min(annotation.width, box.width / 2, box.height / 2));
      ctx.stroke();
      break;
    }
    case 'ellipse': {
      const box = shapeBox(annotation);
      strokeWith(ctx, annotation);
      ctx.beginPath();
      ctx.ellipse(box.x + box.width / 2, box.y + box.height / 2, box.width / 2, box.height / 2, 0, 0, Math.PI * 2);
      ctx.stroke();
      break;
    }
    case 'pen':
      drawPen(ctx, annotation);
      break;
    case 'highlight': {
      // A marker: the colour multiplies what is under it, so dark text stays dark.
      const box = shapeBox(annotation);
      ctx.globalAlpha = HIGHLIGHT_ALPHA;
      ctx.globalCompositeOperation = 'multiply';
      ctx.fillStyle = annotation.color;
      ctx.fillRect(box.x, box.y, box.width, box.height);
      break;
    }
    default:
      break;
  }
  ctx.restore();
}

/**
 * A smooth curve through the stroke: quadratic segments from midpoint to midpoint, each bending
 * at a sample, so the thinned points show no corners. Canvas calls only (it runs in a worker too).
 */
function drawPen(ctx: CanvasRenderingContext2D, pen: PenAnnotation): void {
  const p = pen.points;
  if (p.length < 2) return;
  strokeWith(ctx, pen);
  ctx.beginPath();
  ctx.moveTo(p[0]!, p[1]!);
  if (p.length === 2) {
    // A dot: a zero-length line with round caps.
    ctx.lineTo(p[0]!, p[1]!);
  } else {
    for (let index = 2; index + 2 < p.length; index += 2) {
      ctx.quadraticCurveTo(p[index]!, p[index + 1]!, (p[index]! + p[index + 2]!) / 2, (p[index + 1]! + p[index + 3]!) / 2);
    }
    ctx.lineTo(p[p.length - 2]!, p[p.length - 1]!);
  }
  ctx.stroke();
}

function strokeWith(ctx: CanvasRenderingContext2D, shape: Pick<ShapeAnnotation, 'color' | 'width'>): void {
  ctx.strokeStyle = shape.color;
  ctx.lineWidth = shape.width;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
}

function drawArrow(ctx: CanvasRenderingContext2D, shape: ShapeAnnotation): void {
  const dx = shape.x2 - shape.x1;
  const dy = shape.y2 - shape.y1;
  const length = Math.hypot(dx, dy);
  if (length === 0) return;
  const ux = dx / length;
  const uy = dy / length;
  // The head grows with the stroke but never past 40% of a short arrow.
  const head = Math.min(Math.max(12, shape.width * 4.5), length * 0.4 + shape.width);
  const half = head * 0.6;
  const baseX = shape.x2 - ux * head;
  const baseY = shape.y2 - uy * head;
  strokeWith(ctx, shape);
  ctx.beginPath();
  ctx.moveTo(shape.x1, shape.y1);
  ctx.lineTo(baseX + ux * head * 0.2, baseY + uy * head * 0.2);
  ctx.stroke();
  ctx.fillStyle = shape.color;
  ctx.beginPath();
  ctx.moveTo(shape.x2, shape.y2);
  ctx.lineTo(baseX - uy * half, baseY + ux * half);
  ctx.lineTo(baseX + uy * half, baseY - ux * half);
  ctx.closePath();
  ctx.fill();
  // Rounded tips, like the shaft's ends.
  ctx.lineWidth = Math.max(1, shape.width / 2);
  ctx.strokeStyle = shape.color;
  ctx.stroke();
}

/** Lines stack at the CSS line height, each glyph box centred in its line as a text field centres it. */
function drawText(ctx: CanvasRenderingContext2D, text: TextAnnotation): void {
  ctx.font = textFont(text);
  ctx.fillStyle = text.color;
  ctx.textBaseline = 'top';
  const line = text.size * TEXT_LINE_HEIGHT;
  const inset = (line - text.size) / 2;
  textLines(text).forEach((row, index) => {
    ctx.fillText(row, text.x, text.y + index * line + inset);
  });
}

/** Whether dark text reads better than white on `color` (#rrggbb). */
export function isLight(color: string): boolean {
  const value = Number.parseInt(color.slice(1), 16);
  if (Number.isNaN(value)) return false;
  const r = (value >> 16) & 255;
  const g = (value >> 8) & 255;
  const b = value & 255;
  return 0.299 * r + 0.587 * g + 0.114 * b > 170;
}

function drawStep(ctx: CanvasRenderingContext2D, step: StepAnnotation): void {
  const radius = step.size / 2;
  ctx.fillStyle = step.color;
  ctx.shadowColor = 'rgba(0, 0, 0, 0.25)';
  ctx.shadowBlur = step.size / 8;
  ctx.shadowOffsetY = step.size / 20;
  ctx.beginPath();
  ctx.arc(step.x, step.y, radius, 0, Math.PI * 2);
  ctx.fill();
  ctx.shadowColor = 'transparent';
  ctx.lineWidth = Math.max(1, step.size / 14);
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  ctx.fillStyle = isLight(step.color) ? '#111111' : '#ffffff';
  const label = String(step.n);
  ctx.font = `700 ${step.size * (label.length > 1 ? 0.46 : 0.56)}px ${ANNOTATION_FONT}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, step.x, step.y + step.size * 0.03);
}

/** The box in whole device pixels, grown outwards, with the device pixels per source pixel. */
function deviceBox(ctx: CanvasRenderingContext2D, box: Box): { x: number; y: number; width: number; height: number; scale: number } {
  const m = ctx.getTransform();
  const a = m.transformPoint(new DOMPoint(box.x, box.y));
  const b = m.transformPoint(new DOMPoint(box.x + box.width, box.y + box.height));
  const x = Math.floor(Math.min(a.x, b.x));
  const y = Math.floor(Math.min(a.y, b.y));
  return { x, y, width: Math.ceil(Math.max(a.x, b.x)) - x, height: Math.ceil(Math.max(a.y, b.y)) - y, scale: Math.hypot(m.a, m.b) };
}

/**
 * Also usable off the main thread, where an export is drawn. In memory, not on the GPU: these are
 * small, and where the GPU is emulated (SwiftShader) a filter and a read back there cost seconds.
 */
function scratch(width: number, height: number): CanvasRenderingContext2D {
  const w = Math.max(1, Math.ceil(width));
  const h = Math.max(1, Math.ceil(height));
  if (typeof OffscreenCanvas === 'function')
    return new OffscreenCanvas(w, h).getContext('2d', { willReadFrequently: true }) as unknown as CanvasRenderingContext2D;
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  return canvas.getContext('2d', { willReadFrequently: true })!;
}

/**
 * Covers the box solid, or paints the source under it again pixelated or blurred, in whole device pixels (so no
 * anti-aliased edge lets an original pixel through). Blocks are sized in device pixels from the
 * transform, so a 3× export is as coarse as the preview.
 */
function redact(ctx: CanvasRenderingContext2D, shape: ShapeAnnotation, redraw: (target: CanvasRenderingContext2D) => void): void {
  const device = deviceBox(ctx, shapeBox(shape));
  if (device.width < 1 || device.height < 1) return;
  const m = ctx.getTransform();
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.beginPath();
  ctx.rect(device.x, device.y, device.width, device.height);
  ctx.clip();
  // Nothing of the original may show through where the source is transparent.
  ctx.clearRect(device.x, device.y, device.width, device.height);
  if (shape.kind === 'solid') {
    // Opaque: nothing of the source is drawn under it at all.
    ctx.fillStyle = SOLID_COLOUR;
    ctx.fillRect(device.x, device.y, device.width, device.height);
  } else if (shape.kind === 'pixelate') {
    const block = Math.max(2, Math.round(PIXEL_BLOCK * device.scale));
    const small = scratch(device.width / block, device.height / block);
    small.setTransform(m.a / block, m.b / block, m.c / block, m.d / block, (m.e - device.x) / block, (m.f - device.y) / block);
    redraw(small);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(small.canvas, device.x, device.y, small.canvas.width * block, small.canvas.height * block);
  } else {
    const radius = Math.max(2, BLUR_RADIUS * device.scale);
    const margin = Math.ceil(radius * 2);
    // Blurred at a third of the radius's resolution: as smooth once scaled up, and far cheaper.
    const factor = Math.max(1, radius / 3);
    const width = (device.width + 2 * margin) / factor;
    const height = (device.height + 2 * margin) / factor;
    const small = scratch(width, height);
    small.setTransform(m.a / factor, m.b / factor, m.c / factor, m.d / factor, (m.e - device.x + margin) / factor, (m.f - device.y + margin) / factor);
    redraw(small);
    const blurred = scratch(width, height);
    if (typeof blurred.filter === 'string') {
      blurred.filter = `blur(${radius / factor}px)`;
      blurred.drawImage(small.canvas, 0, 0);
    } else {
      // No canvas filters (older Safari): a coarser step down blurs when scaled up smoothly.
      blurred.imageSmoothingQuality = 'high';
      blurred.drawImage(small.canvas, 0, 0, Math.max(1, width / 3), Math.max(1, height / 3));
      const copy = scratch(width, height);
      copy.drawImage(blurred.canvas, 0, 0, Math.max(1, width / 3), Math.max(1, height / 3), 0, 0, width, height);
      blurred.clearRect(0, 0, width, height);
      blurred.drawImage(copy.canvas, 0, 0);
    }
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(
      blurred.canvas,
      0,
      0,
      blurred.canvas.width,
      blurred.canvas.height,
      device.x - margin,
      device.y - margin,
      blurred.canvas.width * factor,
      blurred.canvas.height * factor,
    );
  }
  ctx.restore();
}
