/**
 * The crop tool's arithmetic, in source layout pixels: every rectangle it returns has whole-number
 * sides, lies inside the source and is at least {@link MIN_CROP} a side where the source allows.
 */
import type { Rect, Size } from './layout.ts';
import { RATIOS } from './presets.ts';

export const MIN_CROP = 16;

export type Handle = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';
export const HANDLES: readonly Handle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/** A ratio as whole terms: a crop of k·width × k·height has exactly this ratio in whole pixels. */
export interface Terms {
  width: number;
  height: number;
}

export interface CropRatio {
  id: string;
  label: string;
  /** null: free. */
  terms: Terms | null;
}

/** The Compose ratios whose terms are small enough to step through in whole pixels (1.91:1 is not). */
const CROP_RATIO_IDS = ['16x9', '4x3', '3x2', '1x1', '4x5', '9x16'];

export const CROP_RATIOS: readonly CropRatio[] = [
  { id: 'free', label: 'Free', terms: null },
  ...RATIOS.filter((ratio) => CROP_RATIO_IDS.includes(ratio.id)).map((ratio) => {
    const [width, height] = ratio.id.split('x').map(Number) as [number, number];
    return { id: ratio.id, label: ratio.name.split(' · ')[0]!, terms: { width, height } };
  }),
];

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

/** The source's size in whole pixels, at least 1 a side. */
function boundsOf(source: Size): Size {
  return { width: Math.max(1, Math.round(source.width)), height: Math.max(1, Math.round(source.height)) };
}

function minSide(bounds: Size): Size {
  return { width: Math.min(MIN_CROP, bounds.width), height: Math.min(MIN_CROP, bounds.height) };
}

/** The whole source as a rectangle. */
export function wholeOf(source: Size): Rect {
  const bounds = boundsOf(source);
  return { x: 0, y: 0, width: bounds.width, height: bounds.height };
}

/** Rounded, at least the minimum, at most the source, and moved inside it. */
export function clampCrop(rect: Rect, source: Size): Rect {
  const bounds = boundsOf(source);
  const min = minSide(bounds);
  const width = clamp(Math.round(rect.width), min.width, bounds.width);
  const height = clamp(Math.round(rect.height), min.height, bounds.height);
  return {
    x: clamp(Math.round(rect.x), 0, bounds.width - width),
    y: clamp(Math.round(rect.y), 0, bounds.height - height),
    width,
    height,
  };
}

/** What to store: null when the crop keeps the whole source. */
export function cropToStore(rect: Rect, source: Size): Rect | null {
  const crop = clampCrop(rect, source);
  const bounds = boundsOf(source);
  return crop.x === 0 && crop.y === 0 && crop.width === bounds.width && crop.height === bounds.height ? null : crop;
}

export function sameRect(a: Rect | null, b: Rect | null): boolean {
  return a === b || (a !== null && b !== null && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height);
}

/** The crop moved by (dx, dy), stopping at the source's edges. */
export function moveCrop(rect: Rect, dx: number, dy: number, source: Size): Rect {
  return clampCrop({ ...rect, x: rect.x + dx, y: rect.y + dy }, source);
}

/** The multiples k of `terms` a crop may have when at most `room` fits. */
function steps(terms: Terms, room: Size, bounds: Size): { low: number; high: number } {
  const min = minSide(bounds);
  const high = Math.floor(Math.min(room.width / terms.width, room.height / terms.height));
  const low = Math.ceil(Math.max(min.width / terms.width, min.height / terms.height));
  return { low: Math.min(low, high), high };
}

/**
 * The crop after dragging `handle` by (dx, dy) from `start`: the opposite edge or corner stays put.
 * With `terms`, the size stays a whole multiple of them: a corner follows the pointer projected on
 * the diagonal, an edge keeps the crop centred across it.
 */
export function resizeCrop(start: Rect, handle: Handle, dx: number, dy: number, source: Size, terms: Terms | null = null): Rect {
  const bounds = boundsOf(source);
  const min = minSide(bounds);
  const west = handle.includes('w');
  const east = handle.includes('e');
  const north = handle.includes('n');
  const south = handle.includes('s');
  const right = start.x + start.width;
  const bottom = start.y + start.height;

  if (terms === null || steps(terms, bounds, bounds).high < 1) {
    let left = start.x;
    let top = start.y;
    let newRight = right;
    let newBottom = bottom;
    if (west) left = clamp(start.x + dx, 0, right - min.width);
    if (east) newRight = clamp(right + dx, start.x + min.width, bounds.width);
    if (north) top = clamp(start.y + dy, 0, bottom - min.height);
    if (south) newBottom = clamp(bottom + dy, start.y + min.height, bounds.height);
    left = Math.round(left);
    top = Math.round(top);
    return clampCrop({ x: left, y: top, width: Math.round(newRight) - left, height: Math.round(newBottom) - top }, bounds);
  }

  const horizontal = west || east;
  const vertical = north || south;
  // The fixed side or corner, and the room from it to the source's edge.
  const anchorX = west ? right : start.x;
  const anchorY = north ? bottom : start.y;
  const roomX = horizontal ? (west ? anchorX : bounds.width - anchorX) : bounds.width;
  const roomY = vertical ? (north ? anchorY : bounds.height - anchorY) : bounds.height;
  const width = start.width + (west ? -dx : east ? dx : 0);
  const height = start.height + (north ? -dy : south ? dy : 0);
  const wanted =
    horizontal && vertical
      ? (width * terms.width + height * terms.height) / (terms.width ** 2 + terms.height ** 2)
      : horizontal
        ? width / terms.width
        : height / terms.height;
  const { low, high } = steps(terms, { width: roomX, height: roomY }, bounds);
  const k = clamp(Math.round(wanted), low, high);
  const w = k * terms.width;
  const h = k * terms.height;
  const x = horizontal ? (west ? anchorX - w : anchorX) : Math.round(start.x + start.width / 2 - w / 2);
  const y = vertical ? (north ? anchorY - h : anchorY) : Math.round(start.y + start.height / 2 - h / 2);
  return clampCrop({ x, y, width: w, height: h }, bounds);
}

/** The largest crop of `terms` inside `rect`, centred on it; the source's largest when `rect` is too thin. */
export function fitRatio(rect: Rect, terms: Terms, source: Size): Rect {
  const bounds = boundsOf(source);
  const whole = steps(terms, bounds, bounds);
  if (whole.high < 1) return clampCrop(rect, bounds);
  const inside = Math.floor(Math.min(rect.width / terms.width, rect.height / terms.height));
  const k = clamp(inside, whole.low, whole.high);
  const width = k * terms.width;
  const height = k * terms.height;
  return clampCrop({ x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2, width, height }, bounds);
}

export type CropField = 'x' | 'y' | 'width' | 'height';

/**
 * A typed left or top edge, kept where typed: the crop shortens to fit rather than moving back,
 * so X, Y, W, H typed in that order give exactly that crop.
 */
function placeCropEdge(rect: Rect, field: 'x' | 'y', value: number, bounds: Size, terms: Terms | null): Rect {
  const min = minSide(bounds);
  const x = field === 'x' ? clamp(Math.round(value), 0, bounds.width - min.width) : rect.x;
  const y = field === 'y' ? clamp(Math.round(value), 0, bounds.height - min.height) : rect.y;
  const room = { width: bounds.width - x, height: bounds.height - y };
  if (terms === null || steps(terms, bounds, bounds).high < 1) {
    return clampCrop({ x, y, width: Math.min(rect.width, room.width), height: Math.min(rect.height, room.height) }, bounds);
  }
  // A ratio shrinks by whole steps; where even the smallest does not fit, the crop moves back.
  const { low, high } = steps(terms, room, bounds);
  const k = clamp(Math.min(Math.round(rect.width / terms.width), high), low, Number.POSITIVE_INFINITY);
  return clampCrop({ x, y, width: k * terms.width, height: k * terms.height }, bounds);
}

/**
 * The crop after typing `value` into one field. The top-left corner stays where it can; with
 * `terms` the other side follows the one typed.
 */
export function setCropField(rect: Rect, field: CropField, value: number, source: Size, terms: Terms | null = null): Rect {
  if (!Number.isFinite(value)) return clampCrop(rect, source);
  const bounds = boundsOf(source);
  if (field === 'x' || field === 'y') return placeCropEdge(rect, field, value, bounds, terms);
  // A size that no longer fits where the crop is moves it back rather than being cut.
  if (terms === null || steps(terms, bounds, bounds).high < 1) return clampCrop({ ...rect, [field]: value }, bounds);
  const { low, high } = steps(terms, bounds, bounds);
  const k = clamp(Math.round(field === 'width' ? value / terms.width : value / terms.height), low, high);
  return clampCrop({ x: rect.x, y: rect.y, width: k * terms.width, height: k * terms.height }, bounds);
}
