/**
 * Where everything goes on the canvas, in layout pixels (the source's CSS pixels): pure arithmetic
 * shared by the export, which multiplies by the scale, and the preview, which fits its box.
 */
import { RATIOS, frameBarHeight } from './presets.ts';
import type { Settings } from './settings.ts';

export interface Point {
  x: number;
  y: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface Layout {
  canvas: Size;
  /** Frame bar plus content: what corner radius and shadow apply to. */
  window: Rect;
  /** 0 without a frame. */
  bar: number;
  content: Rect;
}

/**
 * The largest export the editor makes: its pixels, and the codecs' input, must fit in the
 * WebAssembly memory of a browser tab (mozjpeg's is 2 GiB). Drawn in bands, only the width meets
 * a canvas's limit.
 */
export const MAX_EXPORT_PIXELS = 100_000_000;
export const MAX_CANVAS_SIDE = 16_384;

/** Every length is a whole number. */
export function layout(source: Size, settings: Pick<Settings, 'padding' | 'frame' | 'ratio'>): Layout {
  const windowWidth = Math.max(1, Math.round(source.width));
  const bar = settings.frame === 'none' ? 0 : frameBarHeight(windowWidth);
  const windowHeight = Math.max(1, Math.round(source.height)) + bar;
  let width = windowWidth + 2 * settings.padding;
  let height = windowHeight + 2 * settings.padding;
  const ratio = RATIOS.find((entry) => entry.id === settings.ratio)?.ratio ?? null;
  if (ratio !== null) {
    // Grow the short side: the padding the user chose is a minimum, never cut.
    if (width / height < ratio) width = Math.ceil(height * ratio);
    else height = Math.ceil(width / ratio);
  }
  const x = Math.floor((width - windowWidth) / 2);
  const y = Math.floor((height - windowHeight) / 2);
  return {
    canvas: { width, height },
    window: { x, y, width: windowWidth, height: windowHeight },
    bar,
    content: { x, y: y + bar, width: windowWidth, height: windowHeight - bar },
  };
}

/** Pixel size of the export at `scale`. */
export function exportSize(canvas: Size, scale: number): Size {
  return { width: Math.round(canvas.width * scale), height: Math.round(canvas.height * scale) };
}

/** Why an export of this size cannot be made, if so. */
export function exportProblem(size: Size): string | undefined {
  if (size.width > MAX_CANVAS_SIDE) {
    return `${size.width} px is wider than a browser canvas can hold (${MAX_CANVAS_SIDE} px): choose a smaller scale or less padding.`;
  }
  if (size.width * size.height > MAX_EXPORT_PIXELS) {
    return `${size.width} × ${size.height} px is more than the ${MAX_EXPORT_PIXELS / 1e6} megapixels an export can have: choose a smaller scale.`;
  }
  return undefined;
}

/** `scale`, or the largest scale below it (to two decimals) whose export can be made. */
export function fittingScale(canvas: Size, scale: number): number {
  const most = Math.min(MAX_CANVAS_SIDE / canvas.width, Math.sqrt(MAX_EXPORT_PIXELS / (canvas.width * canvas.height)));
  if (!exportProblem(exportSize(canvas, scale))) return scale;
  let fitting = Math.floor(Math.min(scale, most) * 100) / 100;
  while (fitting > 0.01 && exportProblem(exportSize(canvas, fitting))) fitting -= 0.01;
  return Math.max(0.01, Math.round(fitting * 100) / 100);
}

/** The largest scale at which `canvas` fits into `box`, centred. */
export function fit(canvas: Size, box: Size): { scale: number; x: number; y: number } {
  const scale = Math.min(box.width / canvas.width, box.height / canvas.height);
  return { scale, x: (box.width - canvas.width * scale) / 2, y: (box.height - canvas.height * scale) / 2 };
}
