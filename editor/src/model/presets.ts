/** The Compose choices as data: the panel's controls and the renderer both read them, so each exists once. */

/** Angle in degrees as in CSS: 0 upwards, 90 to the right. */
export interface Gradient {
  id: string;
  name: string;
  angle: number;
  stops: readonly string[];
}

export const GRADIENTS = [
  { id: 'sunset', name: 'Sunset', angle: 135, stops: ['#ff7e5f', '#feb47b'] },
  { id: 'ocean', name: 'Ocean', angle: 135, stops: ['#2193b0', '#6dd5ed'] },
  { id: 'grape', name: 'Grape', angle: 135, stops: ['#8e2de2', '#4a00e0'] },
  { id: 'mint', name: 'Mint', angle: 135, stops: ['#43e97b', '#38f9d7'] },
  { id: 'peach', name: 'Peach', angle: 135, stops: ['#ffecd2', '#fcb69f'] },
  { id: 'candy', name: 'Candy', angle: 135, stops: ['#f093fb', '#f5576c'] },
  { id: 'sky', name: 'Sky', angle: 180, stops: ['#a1c4fd', '#c2e9fb'] },
  { id: 'night', name: 'Night', angle: 135, stops: ['#0f2027', '#203a43', '#2c5364'] },
] as const satisfies readonly Gradient[];

export type GradientId = (typeof GRADIENTS)[number]['id'];

/** The gradient of the user's own two colours and angle (settings gradientFrom, gradientTo, gradientAngle). */
export const CUSTOM_GRADIENT = 'custom';
export type GradientChoice = GradientId | typeof CUSTOM_GRADIENT;

/** Ratios grow the canvas rather than shrink the padding; `free` fits the content. */
export const RATIOS = [
  { id: 'free', name: 'Free (fit the content)', ratio: null },
  { id: '16x9', name: '16:9 · X / Twitter post, YouTube', ratio: 16 / 9 },
  { id: '1x1', name: '1:1 · Instagram square', ratio: 1 },
  { id: '4x5', name: '4:5 · Instagram portrait', ratio: 4 / 5 },
  { id: '9x16', name: '9:16 · Stories, Reels, TikTok', ratio: 9 / 16 },
  { id: '191x100', name: '1.91:1 · LinkedIn, Facebook, link previews', ratio: 1.91 },
  { id: '4x3', name: '4:3 · Slides', ratio: 4 / 3 },
  { id: '3x2', name: '3:2 · Dribbble, blog header', ratio: 3 / 2 },
] as const;

export type RatioId = (typeof RATIOS)[number]['id'];

/** Blur and offset in layout pixels, opacity of black. */
export const SHADOWS = [
  { id: 'none', name: 'None', blur: 0, offsetY: 0, alpha: 0 },
  { id: 'soft', name: 'Soft', blur: 24, offsetY: 8, alpha: 0.18 },
  { id: 'medium', name: 'Medium', blur: 48, offsetY: 18, alpha: 0.3 },
  { id: 'strong', name: 'Strong', blur: 80, offsetY: 30, alpha: 0.45 },
] as const;

export type ShadowId = (typeof SHADOWS)[number]['id'];

export const FRAMES = [
  { id: 'none', name: 'None' },
  { id: 'light', name: 'Browser, light' },
  { id: 'dark', name: 'Browser, dark' },
] as const;

export type FrameId = (typeof FRAMES)[number]['id'];

/**
 * Output pixels per layout pixel. `auto`, the default, is the source's own pixels (a desktop
 * capture's 1×, a phone capture's 2×), so the default never upscales; a tweet card, drawn with
 * paths and text, is sharp at 2×. ½× makes a light file of a large picture; other scales below 1×
 * only where the chosen scale cannot be made (layout.ts fittingScale).
 */
export const SCALES = [0.5, 1, 2, 3] as const;
/** What the settings may hold: a scale, or `auto`, shown as the scale it stands for. */
export const SCALE_SETTINGS = ['auto', ...SCALES] as const;
export type Scale = (typeof SCALE_SETTINGS)[number];
const VECTOR_SCALE = 2;

/** As the scale control names it: ½× rather than 0.5×. */
export function scaleName(scale: number): string {
  return `${scale === 0.5 ? '½' : scale}×`;
}

/** `scale` as a number, for a source of `density` pixels per layout pixel (none for a vector source). */
export function resolvedScale(scale: Scale, density: number | undefined): number {
  return scale === 'auto' ? (density ?? VECTOR_SCALE) : scale;
}

/** As the scale control and the readout name a setting: Auto, ½×, 1×… */
export function scaleSettingName(scale: Scale): string {
  return scale === 'auto' ? 'Auto' : scaleName(scale);
}

/** The line under the scale control: what the chosen setting makes of this source, if there is one. */
export function scaleNote(scale: Scale, density: number | undefined, size: { width: number; height: number } | undefined): string {
  if (!size) return scale === 'auto' ? 'Auto: the source’s own pixels, never upscaled.' : `${scaleName(scale)} the source’s layout size.`;
  const pixels = `${size.width} × ${size.height} px`;
  return scale === 'auto' ? `Auto is ${scaleName(resolvedScale(scale, density))} for this source: ${pixels}.` : `${pixels}.`;
}

/** With the file extension the API names them with. */
export const FORMATS = [
  { id: 'png', name: 'PNG', type: 'image/png', extension: 'png' },
  { id: 'jpeg', name: 'JPEG', type: 'image/jpeg', extension: 'jpg' },
  { id: 'webp', name: 'WebP', type: 'image/webp', extension: 'webp' },
] as const;

export type FormatId = (typeof FORMATS)[number]['id'];

export const QUALITIES = [
  { id: 'high', name: 'High' },
  { id: 'medium', name: 'Medium' },
  { id: 'low', name: 'Low' },
] as const;

export type QualityId = (typeof QUALITIES)[number]['id'];

export const BACKGROUNDS = [
  { id: 'gradient', name: 'Gradient' },
  { id: 'solid', name: 'Solid colour' },
  { id: 'image', name: 'Image' },
  { id: 'none', name: 'None (transparent)' },
] as const;

export type BackgroundKind = (typeof BACKGROUNDS)[number]['id'];

/** Proportional to the width, so the bar reads alike on a phone capture, a tweet card or a desktop page. */
export function frameBarHeight(width: number): number {
  return Math.round(Math.min(64, Math.max(36, width / 30)));
}

/** Shared by the sliders and by parsing shared links. */
export const LIMITS = {
  padding: { min: 0, max: 256, step: 8 },
  radius: { min: 0, max: 48, step: 2 },
  /** Degrees, as in CSS. */
  gradientAngle: { min: 0, max: 360, step: 5 },
  /** Layout pixels, so an export at any scale looks like the preview. */
  blur: { min: 0, max: 40, step: 1 },
} as const;
