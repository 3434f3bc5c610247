/** Judging redacted captures by their pixels: decoded PNGs, what is black inside boxes, what changed outside them. */
import sharp from 'sharp';
import type { Redaction } from '#shared/schemas/redaction.ts';

export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

export async function pixels(base64: string): Promise<Pixels> {
  const { data, info } = await sharp(Buffer.from(base64, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Pixels inside the box (`inset` px in from its edges) that are not black. */
export function notBlack(image: Pixels, box: Redaction, inset = 0): number {
  let n = 0;
  for (let y = box.y + inset; y < box.y + box.height - inset; y += 1) {
    for (let x = box.x + inset; x < box.x + box.width - inset; x += 1) {
      const i = (y * image.width + x) * 3;
      if (image.data[i]! > 8 || image.data[i + 1]! > 8 || image.data[i + 2]! > 8) n += 1;
    }
  }
  return n;
}

/**
 * Pixels outside every box that differ (more than 8 a channel) between two pictures of one size,
 * in the rows `from` to `to` (all by default).
 */
export function changedOutside(a: Pixels, b: Pixels, boxes: readonly Redaction[], rows: { from: number; to: number } = { from: 0, to: a.height }): number {
  const inside = new Uint8Array(a.width * a.height);
  for (const box of boxes) for (let y = box.y; y < box.y + box.height; y += 1) inside.fill(1, y * a.width + box.x, y * a.width + box.x + box.width);
  let n = 0;
  for (let p = rows.from * a.width; p < Math.min(rows.to, a.height) * a.width; p += 1) {
    if (inside[p]) continue;
    const i = p * 3;
    if (Math.abs(a.data[i]! - b.data[i]!) > 8 || Math.abs(a.data[i + 1]! - b.data[i + 1]!) > 8 || Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 8) n += 1;
  }
  return n;
}

/** Clearly red pixels (antialiased edges of red text included) in the rect, or the whole picture. */
export function redPixels(
  image: Pixels,
  rect: { x: number; y: number; width: number; height: number } = { x: 0, y: 0, width: image.width, height: image.height },
): number {
  let n = 0;
  for (let y = Math.max(0, rect.y); y < Math.min(image.height, rect.y + rect.height); y += 1) {
    for (let x = Math.max(0, rect.x); x < Math.min(image.width, rect.x + rect.width); x += 1) {
      const i = (y * image.width + x) * 3;
      if (image.data[i]! >= 140 && image.data[i + 1]! <= 120 && image.data[i + 2]! <= 120 && image.data[i]! - image.data[i + 1]! >= 60) n += 1;
    }
  }
  return n;
}
