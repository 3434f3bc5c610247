/**
 * The settings and one text form for the URL fragment (to share) and local storage (to keep).
 * Unreadable fields fall back one by one, so a stale or hand-edited link still opens.
 */
import { BACKGROUNDS, CUSTOM_GRADIENT, FORMATS, FRAMES, GRADIENTS, LIMITS, QUALITIES, RATIOS, SCALE_SETTINGS, SHADOWS } from './presets.ts';
import type { BackgroundKind, FormatId, FrameId, GradientChoice, QualityId, RatioId, Scale, ShadowId } from './presets.ts';

export interface Settings {
  background: BackgroundKind;
  gradient: GradientChoice;
  /** #rrggbb, for the solid background. */
  color: string;
  /** #rrggbb and degrees, for the custom gradient. */
  gradientFrom: string;
  gradientTo: string;
  gradientAngle: number;
  /** Of an image background, in layout pixels. The image itself is kept in the browser, not here. */
  blur: number;
  padding: number;
  radius: number;
  shadow: ShadowId;
  frame: FrameId;
  ratio: RatioId;
  scale: Scale;
  format: FormatId;
  quality: QualityId;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = {
  background: 'gradient',
  gradient: 'ocean',
  color: '#f1f3f5',
  gradientFrom: '#6366f1',
  gradientTo: '#ec4899',
  gradientAngle: 135,
  blur: 0,
  padding: 64,
  radius: 12,
  shadow: 'medium',
  frame: 'none',
  ratio: 'free',
  scale: 'auto',
  format: 'png',
  quality: 'high',
};

/**
 * How the file is made, not what the picture is: changing one is no undo step, and undo and redo
 * leave them as they are (document-model.ts).
 */
export const EXPORT_SETTINGS = ['scale', 'format', 'quality'] as const satisfies readonly (keyof Settings)[];

/** Whether two settings draw the same picture: every field but the export settings alike. */
export function samePicture(a: Readonly<Settings>, b: Readonly<Settings>): boolean {
  return (Object.keys(a) as (keyof Settings)[]).every((name) => (EXPORT_SETTINGS as readonly string[]).includes(name) || a[name] === b[name]);
}

/** `snapshot` with the export settings of `current` (itself when they are alike). */
export function withExportSettings(snapshot: Settings, current: Readonly<Settings>): Settings {
  if (EXPORT_SETTINGS.every((name) => snapshot[name] === current[name])) return snapshot;
  return { ...snapshot, scale: current.scale, format: current.format, quality: current.quality };
}

/** Short parameter names keep shared links readable. */
const KEYS: Record<keyof Settings, string> = {
  background: 'bg',
  gradient: 'g',
  color: 'c',
  gradientFrom: 'g1',
  gradientTo: 'g2',
  gradientAngle: 'ga',
  blur: 'bl',
  padding: 'pad',
  radius: 'r',
  shadow: 'sh',
  frame: 'fr',
  ratio: 'ar',
  scale: 'x',
  format: 'f',
  quality: 'q',
};

const ids = <T extends { id: string }>(list: readonly T[]): T['id'][] => list.map((item) => item.id);

function oneOf<T extends string | number>(allowed: readonly T[], raw: string | null, fallback: T): T {
  if (raw === null) return fallback;
  return allowed.find((value) => String(value) === raw) ?? fallback;
}

function within(bounds: { min: number; max: number }, raw: string | null, fallback: number): number {
  if (raw === null || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) return fallback;
  return Math.round(Math.min(bounds.max, Math.max(bounds.min, value)));
}

function colour(raw: string | null, fallback: string): string {
  const value = raw?.trim().toLowerCase() ?? '';
  return /^#?[0-9a-f]{6}$/.test(value) ? `#${value.replace('#', '')}` : fallback;
}

/** Each field falls back to `base` when absent or invalid. */
export function settingsFrom(params: URLSearchParams, base: Readonly<Settings> = DEFAULT_SETTINGS): Settings {
  const get = (name: keyof Settings) => params.get(KEYS[name]);
  return {
    background: oneOf(ids(BACKGROUNDS), get('background'), base.background),
    gradient: oneOf<GradientChoice>([...ids(GRADIENTS), CUSTOM_GRADIENT], get('gradient'), base.gradient),
    color: colour(get('color'), base.color),
    gradientFrom: colour(get('gradientFrom'), base.gradientFrom),
    gradientTo: colour(get('gradientTo'), base.gradientTo),
    gradientAngle: within(LIMITS.gradientAngle, get('gradientAngle'), base.gradientAngle),
    blur: within(LIMITS.blur, get('blur'), base.blur),
    padding: within(LIMITS.padding, get('padding'), base.padding),
    radius: within(LIMITS.radius, get('radius'), base.radius),
    shadow: oneOf(ids(SHADOWS), get('shadow'), base.shadow),
    frame: oneOf(ids(FRAMES), get('frame'), base.frame),
    ratio: oneOf(ids(RATIOS), get('ratio'), base.ratio),
    scale: oneOf(SCALE_SETTINGS, get('scale'), base.scale),
    format: oneOf(ids(FORMATS), get('format'), base.format),
    quality: oneOf(ids(QUALITIES), get('quality'), base.quality),
  };
}

/** Every field, in a stable order. */
export function settingsToParams(settings: Readonly<Settings>): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of Object.keys(KEYS) as (keyof Settings)[]) {
    const value = settings[name];
    params.set(KEYS[name], String(value).replace(/^#/, ''));
  }
  return params;
}

/** A shared link wins over local storage: whoever opens it wants to see what was shared. */
export function initialSettings(stored: string | null, fragment: string): Settings {
  const remembered = stored === null ? DEFAULT_SETTINGS : settingsFrom(new URLSearchParams(stored));
  return settingsFrom(new URLSearchParams(fragment.replace(/^#/, '')), remembered);
}

/** Settings read back from storage (an undo step kept across a reload): each field checked as a link's would be. */
export function settingsFromStored(raw: unknown, base: Readonly<Settings> = DEFAULT_SETTINGS): Settings {
  if (typeof raw !== 'object' || raw === null) return { ...base };
  const params = new URLSearchParams();
  for (const name of Object.keys(KEYS) as (keyof Settings)[]) {
    const value = (raw as Record<string, unknown>)[name];
    if (typeof value === 'string' || typeof value === 'number') params.set(KEYS[name], String(value).replace(/^#/, ''));
  }
  return settingsFrom(params, base);
}
