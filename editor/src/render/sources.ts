/** What can be composed: a bitmap or a tweet card, drawing itself into any rectangle at any scale. */
import type { Rect } from '../model/layout.ts';
import type { CardTheme } from './tweet-card-paint.ts';
import type { TweetView } from '../model/tweet.ts';

/** What a source is made from, kept in the browser so a reload or the recent list can make it again. */
export type SourceOrigin =
  | { kind: 'bitmap'; blob: Blob; density: number /** A capture's page. */; address?: string }
  | { kind: 'tweet'; view: TweetView; theme: CardTheme };

export interface Source {
  /** A shot is a release's picture, taken by its run (releases-panel.ts). */
  kind: 'capture' | 'tweet' | 'image' | 'shot';
  /** Size in layout pixels. */
  width: number;
  height: number;
  /** Shown in the browser frame's address pill; '' (a file has no address) draws no pill. */
  title: string;
  /** For people: "example.com, desktop, light". */
  description: string;
  /** The picture itself, where the source is one: the export sends it to its worker. */
  bitmap?: ImageBitmap;
  /** Its pixels per layout pixel, where it is a picture: the `auto` scale's. */
  density?: number;
  /** Draws into `rect` (layout pixels) of a context already scaled to the output. */
  draw(ctx: CanvasRenderingContext2D, rect: Rect): void;
  origin?: SourceOrigin;
}

/** The screenshot response carries its PNG as base64. */
export function base64ToBlob(base64: string, type: string): Blob {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type });
}

/**
 * `density` is pixels per layout pixel (a phone capture is taken at 2). createImageBitmap reads the
 * Blob without fetching, so the CSP needs neither blob: nor data: in img-src.
 * @throws Error when the bytes are not an image the browser can decode
 */
export async function bitmapSource(
  blob: Blob,
  options: { kind: Source['kind']; density?: number; title: string; description: string; address?: string },
): Promise<Source> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  } catch {
    throw new Error('This file is not an image the browser can read: use PNG, JPEG, WebP or GIF.');
  }
  const density = options.density ?? 1;
  return {
    kind: options.kind,
    width: Math.max(1, Math.round(bitmap.width / density)),
    height: Math.max(1, Math.round(bitmap.height / density)),
    title: options.title,
    description: options.description,
    bitmap,
    origin: { kind: 'bitmap', blob, density, address: options.address },
    density,
    draw(ctx, rect) {
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(bitmap, rect.x, rect.y, rect.width, rect.height);
    },
  };
}

/** With CORS, so the canvas stays exportable. */
export function loadCorsImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    // Without it the request is no-cors and the first drawImage taints the canvas for good.
    image.crossOrigin = 'anonymous';
    image.decoding = 'async';
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(`Could not load ${url}`));
    image.src = url;
  });
}
