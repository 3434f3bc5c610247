/** What an export is made from, in a form its worker can receive: bitmaps and data, no functions. */
import type { Composition } from '../render/composition.ts';
import type { Edits } from '../model/edits.ts';
import type { FormatId, QualityId } from '../model/presets.ts';
import type { Settings } from '../model/settings.ts';
import type { Source } from '../render/sources.ts';

export interface Scene {
  settings: Settings;
  edits: Edits;
  backgroundImage?: ImageBitmap;
  /** The whole source as pixels, and its size in layout pixels. */
  source: { bitmap: ImageBitmap; width: number; height: number; title: string };
  /** Output pixels per layout pixel. */
  scale: number;
}

export interface ExportRequest {
  id: number;
  scene: Scene;
  format: FormatId;
  quality: QualityId;
}

/** Where the time went, in ms, for the bench. */
export interface ExportTimings {
  render: number;
  encode: number;
}

/** `ready` once the worker has its codecs, so exports need nothing more from the server. */
export type ExportReply = { id: number; blob: Blob; timings: ExportTimings } | { id: number; error: string } | { ready: boolean };

/** A bitmap source: cheap to send, as ImageBitmaps are cloned without copying their pixels. */
export async function sceneOf(composition: Composition, scale: number): Promise<Scene> {
  const { source, settings, edits, backgroundImage } = composition;
  const bitmap = source.bitmap ?? (await vectorBitmap(source, scale));
  return {
    settings,
    edits,
    scale,
    source: { bitmap, width: source.width, height: source.height, title: source.title },
    ...(backgroundImage ? { backgroundImage } : {}),
  };
}

/** A source drawn with paths and text (a tweet card), drawn once at the export's scale. */
function vectorBitmap(source: Source, scale: number): Promise<ImageBitmap> {
  const canvas = new OffscreenCanvas(Math.max(1, Math.round(source.width * scale)), Math.max(1, Math.round(source.height * scale)));
  const ctx = canvas.getContext('2d')! as unknown as CanvasRenderingContext2D;
  ctx.scale(canvas.width / source.width, canvas.height / source.height);
  source.draw(ctx, { x: 0, y: 0, width: source.width, height: source.height });
  return createImageBitmap(canvas);
}

export function sceneComposition(scene: Scene): Composition {
  const { bitmap, width, height, title } = scene.source;
  const source: Source = {
    kind: 'image',
    width,
    height,
    title,
    description: '',
    bitmap,
    draw(ctx, rect) {
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(bitmap, rect.x, rect.y, rect.width, rect.height);
    },
  };
  return { source, settings: scene.settings, edits: scene.edits, ...(scene.backgroundImage ? { backgroundImage: scene.backgroundImage } : {}) };
}
