/** The composition's background: a gradient (preset or the user's own), a colour, an image of the user's, or none. */
import { CUSTOM_GRADIENT, GRADIENTS } from '../model/presets.ts';
import type { Gradient } from '../model/presets.ts';
import type { Layout, Size } from '../model/layout.ts';
import type { Composition } from './composition.ts';
import { DEFAULT_SETTINGS } from '../model/settings.ts';
import type { Settings } from '../model/settings.ts';

/** Preview, export and a worker's OffscreenCanvas all draw through this. */
type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** What an image background shows while its image is missing (a shared link, another browser). */
export const FALLBACK_GRADIENT: Gradient = GRADIENTS.find((entry) => entry.id === DEFAULT_SETTINGS.gradient) ?? GRADIENTS[0];

/** The preset, or the user's two colours at their angle. */
export function gradientOf(settings: Pick<Settings, 'gradient' | 'gradientFrom' | 'gradientTo' | 'gradientAngle'>): Gradient {
  if (settings.gradient === CUSTOM_GRADIENT)
    return { id: CUSTOM_GRADIENT, name: 'Custom', angle: settings.gradientAngle, stops: [settings.gradientFrom, settings.gradientTo] };
  return GRADIENTS.find((entry) => entry.id === settings.gradient) ?? FALLBACK_GRADIENT;
}

/** For swatches, through the CSSOM. */
export function cssGradient(gradient: Gradient): string {
  return `linear-gradient(${gradient.angle}deg, ${gradient.stops.join(', ')})`;
}

/** As CSS draws it: 0° points up, 90° right, and the line spans the corners. */
function linearGradient(ctx: Context2D, gradient: Gradient, box: Size): CanvasGradient {
  const angle = (gradient.angle * Math.PI) / 180;
  const dx = Math.sin(angle);
  const dy = -Math.cos(angle);
  const half = (Math.abs(box.width * dx) + Math.abs(box.height * dy)) / 2;
  const cx = box.width / 2;
  const cy = box.height / 2;
  const fill = ctx.createLinearGradient(cx - dx * half, cy - dy * half, cx + dx * half, cy + dy * half);
  gradient.stops.forEach((stop, index) => {
    fill.addColorStop(index / Math.max(1, gradient.stops.length - 1), stop);
  });
  return fill;
}

/**
 * Covers the canvas (object-fit: cover). Drawn in device pixels, where the blur radius is
 * unambiguous, and past the edges by the blur's reach, so the edges mix image, not transparency.
 */
function drawImageCover(ctx: Context2D, image: ImageBitmap, canvas: Size, blur: number): void {
  const m = ctx.getTransform();
  const area = { x: m.e, y: m.f, width: canvas.width * m.a, height: canvas.height * m.d };
  const radius = blur * m.a;
  const bleed = Math.ceil(radius * 3);
  const scale = Math.max((area.width + 2 * bleed) / image.width, (area.height + 2 * bleed) / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.beginPath();
  ctx.rect(area.x, area.y, area.width, area.height);
  ctx.clip();
  if (radius > 0) ctx.filter = `blur(${radius}px)`;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, area.x + (area.width - width) / 2, area.y + (area.height - height) / 2, width, height);
  ctx.restore();
}

/** Fills `canvas` (layout pixels, under the context's current transform); `none` leaves it clear. */
export function drawBackground(ctx: Context2D, composition: Pick<Composition, 'settings' | 'backgroundImage'>, canvas: Layout['canvas']): void {
  const { settings, backgroundImage } = composition;
  if (settings.background === 'none') return;
  if (settings.background === 'image' && backgroundImage) {
    drawImageCover(ctx, backgroundImage, canvas, settings.blur);
    return;
  }
  ctx.fillStyle =
    settings.background === 'solid' ? settings.color : linearGradient(ctx, settings.background === 'image' ? FALLBACK_GRADIENT : gradientOf(settings), canvas);
  ctx.fillRect(0, 0, canvas.width, canvas.height);
}

const article = (name: string) => `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;

/** For the preview's accessible name: "on <this>". */
export function describeBackground(settings: Settings, hasImage: boolean): string {
  switch (settings.background) {
    case 'gradient':
      return settings.gradient === CUSTOM_GRADIENT
        ? `a custom gradient background (${settings.gradientFrom} to ${settings.gradientTo} at ${settings.gradientAngle}°)`
        : `${article(gradientOf(settings).name)} gradient background`;
    case 'solid':
      return `a solid ${settings.color} background`;
    case 'image':
      if (!hasImage) return `${article(FALLBACK_GRADIENT.name)} gradient background, for want of a background image in this browser`;
      return settings.blur > 0 ? `your background image, blurred ${settings.blur} px` : 'your background image';
    case 'none':
      return 'a transparent background';
  }
}
