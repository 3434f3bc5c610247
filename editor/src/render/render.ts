/** Draws a composition at any scale: preview and export share it, so what is exported is what was previewed. */
import { drawAnnotations } from './annotation-drawing.ts';
import { drawBackground } from './backgrounds.ts';
import { fitText } from './canvas-text.ts';
import type { Edits } from '../model/edits.ts';
import { planOf } from './composition.ts';
import type { Composition } from './composition.ts';
import { exportSize } from '../model/layout.ts';
import type { Layout, Rect } from '../model/layout.ts';
import { SHADOWS } from '../model/presets.ts';
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

/** A canvas of this thread: the export worker has no document. */
function newCanvas(width: number, height: number): HTMLCanvasElement {
  if (typeof document === 'undefined') return new OffscreenCanvas(width, height) as unknown as HTMLCanvasElement;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

/** Behind transparent areas of the preview only. */
function checkerboard(ctx: CanvasRenderingContext2D, x: number, y: number, width: number, height: number): void {
  const tile = newCanvas(16, 16);
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
  /** Nothing in the window is transparent: its shadow can be drawn from its outline alone. */
  opaqueWindow?: boolean;
}

type Shadow = (typeof SHADOWS)[number];

/**
 * The window (frame bar and content, rounded), at `scale`, on a layer of its own. Only its rows on
 * the target canvas and the shadow's reach are drawn, so an export drawn in bands never needs a
 * layer taller than a band. `first` is the layer's first row within the whole window.
 */
function windowLayer(ctx: CanvasRenderingContext2D, composition: Composition, plan: Layout, scale: number, top: number, shadow: Shadow) {
  const { source, settings, edits } = composition;
  const { window: win, bar } = plan;
  const fullHeight = Math.max(1, Math.round(win.height * scale));
  const reach = Math.ceil((shadow.blur * 2 + shadow.offsetY) * scale) + 2;
  const rowsOnCanvas = ctx.canvas?.height ?? fullHeight;
  const first = Math.min(fullHeight - 1, Math.max(0, Math.floor(-reach - top)));
  const last = Math.max(first + 1, Math.min(fullHeight, Math.ceil(rowsOnCanvas + reach - top)));
  const layer = newCanvas(Math.max(1, Math.round(win.width * scale)), last - first);
  // The layer lives where the target does: in memory for an export (see rasterize).
  const lc = layer.getContext('2d', { willReadFrequently: ctx.getContextAttributes?.().willReadFrequently ?? false })!;
  lc.setTransform(layer.width / win.width, 0, 0, fullHeight / win.height, 0, -first);
  lc.beginPath();
  lc.roundRect(0, 0, win.width, win.height, Math.min(settings.radius, win.width / 2, win.height / 2));
  lc.clip();
  if (settings.frame !== 'none') {
    lc.fillStyle = FRAME_COLOURS[settings.frame].page;
    lc.fillRect(0, bar, win.width, win.height - bar);
    drawFrameBar(lc, settings.frame, win.width, bar, source.title);
  }
  drawContent(lc, source, edits, { x: 0, y: bar, width: win.width, height: win.height - bar });
  // In a worker, rasterised once here: drawn as a recording, it would be replayed for the shadow
  // and again for the window, redactions and all.
  const image = 'transferToImageBitmap' in layer ? (layer as unknown as OffscreenCanvas).transferToImageBitmap() : layer;
  return { image, first, rowHeight: (win.height * scale) / fullHeight };
}

/** Device pixels of blur per pixel of the canvas an outline's shadow is drawn on. */
const SHADOW_BLUR_PER_PIXEL = 12;

/**
 * An opaque window's shadow, from its rounded outline alone (the shape drawn off the canvas, its
 * shadow offset back): far cheaper than blurring the whole layer. It is drawn small and scaled up,
 * which a blur this wide cannot show, and only around the window, which covers the rest.
 */
function outlineShadow(ctx: CanvasRenderingContext2D, box: Rect, radius: number, shadow: Shadow, scale: number): void {
  const blur = shadow.blur * scale;
  const factor = Math.max(1, Math.floor(blur / SHADOW_BLUR_PER_PIXEL));
  const reach = blur * 1.5 + shadow.offsetY * scale + factor;
  const x = Math.max(0, Math.floor(box.x - reach));
  const y = Math.max(0, Math.floor(box.y - reach));
  const right = Math.min(ctx.canvas.width, Math.ceil(box.x + box.width + reach));
  const bottom = Math.min(ctx.canvas.height, Math.ceil(box.y + box.height + reach));
  if (right <= x || bottom <= y) return;
  const small = newCanvas(Math.ceil((right - x) / factor), Math.ceil((bottom - y) / factor)).getContext('2d', { willReadFrequently: true })!;
  small.setTransform(1 / factor, 0, 0, 1 / factor, -x / factor, -y / factor);
  const away = box.x + box.width + blur * 4 + 16;
  small.shadowColor = `rgba(0, 0, 0, ${shadow.alpha})`;
  small.shadowBlur = blur / factor;
  small.shadowOffsetX = away / factor;
  small.shadowOffsetY = (shadow.offsetY * scale) / factor;
  small.beginPath();
  small.roundRect(box.x - away, box.y, box.width, box.height, radius);
  small.fill();
  ctx.save();
  // Whole pixels inside the rounded corners: a clip on whole pixels needs no anti-aliasing mask.
  const inset = Math.ceil(radius) + 1;
  const inner = {
    x: Math.ceil(box.x) + inset,
    y: Math.ceil(box.y) + inset,
    width: Math.floor(box.width) - 2 * inset,
    height: Math.floor(box.height) - 2 * inset,
  };
  ctx.beginPath();
  ctx.rect(x, y, right - x, bottom - y);
  if (inner.width > 0 && inner.height > 0) ctx.rect(inner.x, inner.y, inner.width, inner.height);
  ctx.clip('evenodd');
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'medium';
  ctx.drawImage(small.canvas, x, y, small.canvas.width * factor, small.canvas.height * factor);
  ctx.restore();
}

/**
 * `scale` is device pixels per layout pixel. The shadow follows the window's rounded outline and
 * any transparency in the source.
 */
export function drawComposition(ctx: CanvasRenderingContext2D, composition: Composition, scale: number, options: DrawOptions = {}): Layout {
  const { settings } = composition;
  const plan = planOf(composition);
  const ox = options.x ?? 0;
  const oy = options.y ?? 0;
  const { canvas, window: win } = plan;

  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (options.checkerboard) checkerboard(ctx, ox, oy, canvas.width * scale, canvas.height * scale);
  ctx.setTransform(scale, 0, 0, scale, ox, oy);
  drawBackground(ctx, composition, canvas);

  const shadow = SHADOWS.find((entry) => entry.id === settings.shadow) ?? SHADOWS[0];
  const top = oy + win.y * scale;
  const { image, first, rowHeight } = windowLayer(ctx, composition, plan, scale, top, shadow);
  const box = { x: ox + win.x * scale, y: top, width: win.width * scale, height: win.height * scale };
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  const radius = Math.min(settings.radius, win.width / 2, win.height / 2) * scale;
  if (shadow.alpha > 0 && options.opaqueWindow) outlineShadow(ctx, box, radius, shadow, scale);
  else if (shadow.alpha > 0) {
    // Shadow lengths are in device pixels: the transform does not scale them.
    ctx.shadowColor = `rgba(0, 0, 0, ${shadow.alpha})`;
    ctx.shadowBlur = shadow.blur * scale;
    ctx.shadowOffsetY = shadow.offsetY * scale;
  }
  ctx.drawImage(image, box.x, top + first * rowHeight, box.width, image.height * rowHeight);
  ctx.restore();
  return plan;
}

/** Pixels per band: within any browser's canvas limits, and few bands for a usual export. */
const BAND_PIXELS = 16_000_000;

/**
 * The composition at `scale` as RGBA, drawn in bands of whole rows on canvases kept in memory
 * (`willReadFrequently`), so a picture taller than one canvas can hold is still drawn whole; on
 * the GPU, which the bundled Chromium emulates (SwiftShader), the same drawing is several times slower.
 */
export function rasterize(composition: Composition, scale: number, options: Pick<DrawOptions, 'opaqueWindow'> = {}): ImageData {
  const size = exportSize(planOf(composition).canvas, scale);
  const rows = Math.max(1, Math.min(size.height, Math.floor(BAND_PIXELS / size.width)));
  const band = (top: number, height: number) => {
    const ctx = newCanvas(size.width, height).getContext('2d', { willReadFrequently: true })!;
    drawComposition(ctx, composition, scale, { ...options, y: -top });
    return ctx.getImageData(0, 0, size.width, height);
  };
  // One band is the picture itself: copying it into a whole-picture array would cost as much again.
  if (rows >= size.height) return band(0, size.height);
  const pixels = new Uint8ClampedArray(size.width * size.height * 4);
  for (let top = 0; top < size.height; top += rows) pixels.set(band(top, Math.min(rows, size.height - top)).data, top * size.width * 4);
  return new ImageData(pixels, size.width, size.height);
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
