/** What computed styles say about drawn text: whether it shows, and how far its ink reaches past its box. */
import { px } from '#shared/services/capture/redaction/snapshot-tree.ts';
import type { Style } from '#shared/services/capture/redaction/snapshot-tree.ts';

/** How far past its box a run's ink can reach (stroke, shadow, emphasis marks, underline, italics), CSS px. */
export interface Ink {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The alpha of a computed colour: rgb(…), rgba(…, a), or a colour function's `/ a`. */
export function alphaOf(color: string): number {
  const slash = /\/\s*([\d.]+)(%?)\s*\)$/.exec(color);
  if (slash) return Number(slash[1]) / (slash[2] ? 100 : 1);
  const rgba = /^rgba\([^,]+,[^,]+,[^,]+,\s*([\d.]+)\)$/.exec(color);
  return rgba ? Number(rgba[1]) : color === 'transparent' ? 0 : 1;
}

/** Each shadow of a computed text-shadow: its offset, blur and whether its colour shows. */
export function shadowsOf(value: string): { x: number; y: number; blur: number; shows: boolean }[] {
  if (!value || value === 'none') return [];
  return value.split(/,(?![^(]*\))/).map((shadow) => {
    const color = /(?:rgba?|hsla?|color|oklch|oklab|lab|lch|hwb)\([^)]*\)|transparent/.exec(shadow)?.[0] ?? '';
    const [x = 0, y = 0, blur = 0] = (shadow.replace(color, '').match(/-?[\d.]+px/g) ?? []).map(px);
    return { x, y, blur, shows: alphaOf(color) > 0 };
  });
}

export function inkOf(style: Style): Ink {
  const size = px(style('font-size'));
  // One pixel for antialiasing, and italics lean out of their box.
  const side = 1 + (style('font-style') === 'normal' ? 0 : Math.ceil(size * 0.2));
  const ink = { left: side, right: side, top: 1, bottom: 1 };
  const stroke = alphaOf(style('-webkit-text-stroke-color')) > 0 ? px(style('-webkit-text-stroke-width')) / 2 : 0;
  for (const key of ['left', 'right', 'top', 'bottom'] as const) ink[key] += Math.ceil(stroke);
  for (const shadow of shadowsOf(style('text-shadow'))) {
    if (!shadow.shows) continue;
    ink.left = Math.max(ink.left, Math.ceil(shadow.blur - shadow.x) + 1);
    ink.right = Math.max(ink.right, Math.ceil(shadow.blur + shadow.x) + 1);
    ink.top = Math.max(ink.top, Math.ceil(shadow.blur - shadow.y) + 1);
    ink.bottom = Math.max(ink.bottom, Math.ceil(shadow.blur + shadow.y) + 1);
  }
  if (style('text-emphasis-style') !== 'none') {
    // Marks half the font's size, over the text or under it.
    const marks = Math.ceil(size * 0.6);
    if (style('text-emphasis-position').includes('under')) ink.bottom += marks;
    else ink.top += marks;
  }
  const lines = style('text-decoration-line');
  if (lines !== 'none') {
    const thickness = Math.ceil(px(style('text-decoration-thickness')) || size / 10) + 1;
    if (lines.includes('underline')) ink.bottom += Math.max(0, Math.ceil(px(style('text-underline-offset')))) + thickness;
    if (lines.includes('overline')) ink.top += thickness;
  }
  return ink;
}

/** A form field clips what it draws to its padding box, which is covered whole. */
export const NO_INK: Ink = { left: 0, right: 0, top: 0, bottom: 0 };

/** Text drawn in no visible way: hidden, or in a colour, stroke and shadow that all let nothing through. */
export function invisibleText(style: Style): boolean {
  if (style('visibility') !== 'visible') return true;
  const fill = alphaOf(style('-webkit-text-fill-color')) > 0;
  const stroke = alphaOf(style('-webkit-text-stroke-color')) > 0 && px(style('-webkit-text-stroke-width')) > 0;
  return !fill && !stroke && !shadowsOf(style('text-shadow')).some((shadow) => shadow.shows);
}
