/**
 * The preview's zoom and pan, as plain arithmetic: fit (the default) or a zoom in CSS pixels per
 * source layout pixel, with the composition's offset from centred. The DOM side is zoom-control.ts.
 */
import type { Size } from './layout.ts';

export interface Viewport {
  /** 'fit' shows the whole composition; 1 is 100 %: one CSS pixel per layout pixel. */
  zoom: number | 'fit';
  /** CSS pixels the composition is moved from centred; ignored when fitting. */
  panX: number;
  panY: number;
}

export const FIT: Viewport = { zoom: 'fit', panX: 0, panY: 0 };
export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 8;
/** One press of + or − and one notch of the wheel. */
export const ZOOM_STEP = 1.25;

/** Where the composition goes in an area (CSS pixels): its top-left corner and its scale. */
export interface Placement {
  x: number;
  y: number;
  scale: number;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

export function fitScale(composition: Size, area: Size, margin: number): number {
  return Math.max(1e-6, Math.min((area.width - 2 * margin) / composition.width, (area.height - 2 * margin) / composition.height));
}

/** The composition in `area`: fitted within the margin, or at the zoom, centred and then panned. */
export function place(composition: Size, area: Size, margin: number, viewport: Viewport): Placement {
  const scale = viewport.zoom === 'fit' ? fitScale(composition, area, margin) : viewport.zoom;
  const panX = viewport.zoom === 'fit' ? 0 : viewport.panX;
  const panY = viewport.zoom === 'fit' ? 0 : viewport.panY;
  return { x: (area.width - composition.width * scale) / 2 + panX, y: (area.height - composition.height * scale) / 2 + panY, scale };
}

/**
 * The pan that keeps some of the composition in view: it may move until a margin's worth is left
 * on screen, never out of reach.
 */
export function clampPan(viewport: Viewport, composition: Size, area: Size, margin: number): Viewport {
  if (viewport.zoom === 'fit') return FIT;
  const limitX = Math.max(0, (composition.width * viewport.zoom + area.width) / 2 - 2 * margin);
  const limitY = Math.max(0, (composition.height * viewport.zoom + area.height) / 2 - 2 * margin);
  return { zoom: viewport.zoom, panX: clamp(viewport.panX, -limitX, limitX), panY: clamp(viewport.panY, -limitY, limitY) };
}

/** Zoomed to `zoom` around `at` (CSS pixels in the area), which stays over the same point of the composition. */
export function zoomAround(viewport: Viewport, zoom: number, at: { x: number; y: number }, composition: Size, area: Size, margin: number): Viewport {
  const before = place(composition, area, margin, viewport);
  const next = clamp(zoom, MIN_ZOOM, MAX_ZOOM);
  const u = (at.x - before.x) / before.scale;
  const v = (at.y - before.y) / before.scale;
  const centred = place(composition, area, margin, { zoom: next, panX: 0, panY: 0 });
  const panX = at.x - u * next - centred.x;
  const panY = at.y - v * next - centred.y;
  return clampPan({ zoom: next, panX, panY }, composition, area, margin);
}

/** The current scale, whether fitted or zoomed. */
export function scaleOf(viewport: Viewport, composition: Size, area: Size, margin: number): number {
  return viewport.zoom === 'fit' ? fitScale(composition, area, margin) : viewport.zoom;
}
