/** Draws a composition at any scale: preview and export share it, so what is exported is what was previewed. */
import { drawAnnotations } from './annotation-drawing.ts';
import { drawBackground } from './backgrounds.ts';
import { fitText } from './canvas-text.ts';
import type { Edits } from './edits.ts';
import { planOf } from './composition.ts';
import type { Composition } from './composition.ts';
import { exportSize } from './layout.ts';
import type { Layout, Rect } from './layout.ts';
import { SHADOWS } from './presets.ts';
import type { Source } from './sources.ts';

const FRAME_COLOURS = {
  light: { bar: '#ebebef', line: '#d4d4d8', pill: '#ffffff', text: '#5f6368', page: '#ffffff' },
  dark: { bar: '#2b2b30', line: '#18181b', pill: '#3b3b41', text: '#b4b4bb', page: '#1e1e22' },
} as const;
const WINDOW_BUTTONS = ['#ff5f57', '#febc2e', '#28c840'];
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';

function drawFrameBar(ctx: CanvasRenderingContext2D, frame: 'light' | 'dark', width: number, bar: number, title: string): void {
  const colours = FRAME_COLOURS[frame];
  // Everything in the bar is sized in fortieths of its height, drawn for a 40-pixel bar.
  const unit = bar / 40;
  ctx.fillStyle = colours.bar;
  ctx.fillRect(0, 0, width, bar);
  ctx.fillStyle = colours.line;
  ctx.fillRect(0, bar - unit, width, unit);
  WINDOW_BUTTONS.forEach((colour, index) => {
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc((20 + index * 20) * unit, bar / 2, 6 * unit, 0, Math.PI * 2);
    ctx.fill();
  });
  const pillWidth = Math.min(width - 180 * unit, width * 0.5);
  // No address (an image file) draws no address bar rather than a made-up one.
  if (pillWidth < 80 * unit || title === '') return;
  const x = (width - pillWidth) / 2;
  ctx.fillStyle = colours.pill;
  ctx.beginPath();
  ctx.roundRect(x, bar / 2 - 12 * unit, pillWidth, 24 * unit, 12 * unit);
  ctx.fill();
  ctx.fillStyle = colours.text;
  ctx.font = `400 ${13 * unit}px ${FONT}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(fitText(ctx, title, pillWidth - 24 * unit), width / 2, bar / 2 + unit);
  ctx.textAlign = 'start';
  ctx.textBaseline = 'alphabetic';
}

/** Behind transparent areas of the preview only. */
function checkerboard(ctx: CanvasRenderingContext2D, x: number, y: number, width: number, height: number): void {
  const tile = document.createElement('canvas');
  tile.width = tile.height = 16;
  const t = tile.getContext('2d')!;
  t.fillStyle = '#ffffff';
  t.fillRect(0, 0, 16, 16);
  t.fillStyle = '#e3e5e8';
  t.fillRect(0, 0, 8, 8);
  t.fillRect(8, 8, 8, 8);
  ctx.save();
  ctx.fillStyle = ctx.createPattern(tile, 'repeat')!;
  ctx.fillRect(x, y, width, height);
  ctx.restore();
}

/** The source, cut to the crop, with its annotations, into `rect` (layout pixels). */
function drawContent(ctx: CanvasRenderingContext2D, source: Source, edits: Edits, rect: Rect): void {
  const crop = edits.crop ?? { x: 0, y: 0, width: source.width, height: source.height };
  const whole = { x: 0, y: 0, width: source.width, height: source.height };
  ctx.save();
  ctx.beginPath();
  ctx.rect(rect.x, rect.y, rect.width, rect.height);
  ctx.clip();
  ctx.translate(rect.x, rect.y);
  ctx.scale(rect.width / crop.width, rect.height / crop.height);
  ctx.translate(-crop.x, -crop.y);
  source.draw(ctx, whole);
  drawAnnotations(ctx, edits.annotations, (target) => source.draw(target, whole));
  ctx.restore();
}

export interface DrawOptions {
  /** Top-left corner, in device pixels. */
  x?: number;
  y?: number;
  /** Preview only. */
  checkerboard?: boolean;
}

/**
 * `scale` is device pixels per layout pixel. The window is drawn on its own layer first, so the
 * shadow follows its rounded outline and any transparency in the source.
 */
export function drawComposition(ctx: CanvasRenderingContext2D, composition: Composition, scale: number, options: DrawOptions = {}): Layout {
  const { source, settings, edits } = composition;
  const plan = planOf(composition);
  const ox = options.x ?? 0;
  const oy = options.y ?? 0;
  const { canvas, window: win, bar } = plan;

  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (options.checkerboard) checkerboard(ctx, ox, oy, canvas.width * scale, canvas.height * scale);
  ctx.setTransform(scale, 0, 0, scale, ox, oy);
  drawBackground(ctx, composition, canvas);

  const layer = document.createElement('canvas');
  layer.width = Math.max(1, Math.round(win.width * scale));
  layer.height = Math.max(1, Math.round(win.height * scale));
  // The layer lives where the target does: in memory for an export (see renderExport).
  const lc = layer.getContext('2d', { willReadFrequently: ctx.getContextAttributes?.().willReadFrequently ?? false })!;
  lc.setTransform(layer.width / win.width, 0, 0, layer.height / win.height, 0, 0);
  const radius = Math.min(settings.radius, win.width / 2, win.height / 2);
  lc.beginPath();
  lc.roundRect(0, 0, win.width, win.height, radius);
  lc.clip();
  if (settings.frame !== 'none') {
    lc.fillStyle = FRAME_COLOURS[settings.frame].page;
    lc.fillRect(0, bar, win.width, win.height - bar);
    drawFrameBar(lc, settings.frame, win.width, bar, source.title);
  }
  drawContent(lc, source, edits, { x: 0, y: bar, width: win.width, height: win.height - bar });

  const shadow = SHADOWS.find((entry) => entry.id === settings.shadow) ?? SHADOWS[0];
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (shadow.alpha > 0) {
    // Shadow lengths are in device pixels: the transform does not scale them.
    ctx.shadowColor = `rgba(0, 0, 0, ${shadow.alpha})`;
    ctx.shadowBlur = shadow.blur * scale;
    ctx.shadowOffsetY = shadow.offsetY * scale;
  }
  ctx.drawImage(layer, ox + win.x * scale, oy + win.y * scale, win.width * scale, win.height * scale);
  ctx.restore();
  return plan;
}

/**
 * The composition at export size, on a new canvas kept in memory (`willReadFrequently`) rather than
 * on the GPU: an export is read back whole, and where the GPU is emulated (SwiftShader, as in the
 * bundled Chromium) drawing there is several times slower.
 */
export function renderExport(composition: Composition): HTMLCanvasElement {
  const size = exportSize(planOf(composition).canvas, composition.settings.scale);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  drawComposition(canvas.getContext('2d', { willReadFrequently: true })!, composition, composition.settings.scale);
  return canvas;
}

/** @throws Error when the canvas cannot be encoded (tainted, or too large for the browser) */
export function canvasBlob(canvas: HTMLCanvasElement, type = 'image/png', quality?: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    try {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The browser could not encode the image; try a smaller scale.'))), type, quality);
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
